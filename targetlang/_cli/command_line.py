"""The ``targetlang`` command: read a target and print it in another form, or check a file of them.

Data goes to stdout, diagnostics to stderr. Exit status: 0 success, 1 bad input (or a check that
found problems, or a file that could not be read), 2 a usage error, 130 an interrupt. No input
makes it print a Python traceback: a failure that is not the input's fault is reported as an
internal error on one line.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import json
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .. import TargetError, __version__
from .._signals import say_stopped, signals_held
from .fix import add_parser as _add_fix_parser
from .inspect import add_parser as _add_inspect_parser
from .logs import add_parser as _add_logs_parser
from .options import (
    add_output_format,
    add_quiet,
    add_registry,
)
from .spec_words import UsageError as _UsageError
from .target import add_parser as add_target_commands
from .target_input import InputError

__all__ = ["main"]

# Imported by every command when it runs (a Target's derived values: resolved keys, a host's
# attributes), so imported before, with the others a command names (``imports``) and the stops held.
_EVERY_COMMAND_IMPORTS = ("targetlang._derived",)

_DESCRIPTION = """\
Read, print and check compilation targets of the TVM compiler: legacy strings
("llvm -mcpu=skylake"), tag names ("nvidia/geforce-rtx-3070") and JSON objects
('{"kind": "llvm"}'), read exactly as TVM v0.22 read them.
"""

_EPILOG = """\
examples:
  $ targetlang fmt "llvm --mcpu skylake"
  llvm -mcpu=skylake
  $ targetlang legacy "llvm -mcpu=cortex-m3"
  llvm -keys=arm_cpu,cpu -mcpu=cortex-m3
  $ echo "cuda --host llvm" | targetlang fmt -
  cuda -host=llvm

A SPEC of '-' is read from standard input (one trailing newline removed).
Exit status: 0 success; 1 bad input or a check that failed; 2 usage error.
Run 'targetlang COMMAND --help' for each command's examples.
"""


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too: they are made of the same class), except that help
    or a version that cannot be written to stdout is an error: argparse drops what it cannot write."""

    def _print_message(self, message: str, file: Any = None) -> None:
        if message and file is not None and file is sys.stdout:
            file.write(message)  # an OSError is reported by main, as any output's
        else:
            super()._print_message(message, file)


def _build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser: argparse.ArgumentParser = _Parser(
        prog="targetlang", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=raw, allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_registry(parser)
    add_quiet(parser)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    add_target_commands(commands)
    _add_logs_parser(commands)
    _add_fix_parser(commands)
    _add_rule_parser(commands)
    _add_inspect_parser(commands)
    for sub in _leaves(parser):
        sub.allow_abbrev = False  # "--json" must never be read as "--jsonish"
        names = {option for action in sub._actions for option in action.option_strings}
        # The options of the whole command work after the subcommand too (default: what was
        # given before it, or nothing).
        if "--registry" not in names:
            add_registry(sub, default=argparse.SUPPRESS)
        if "--quiet" not in names and "-q" not in names:
            add_quiet(sub, default=argparse.SUPPRESS)
        if any(action.dest == "spec" and action.nargs == argparse.REMAINDER for action in sub._actions):
            # what an option written after the spec words is told (spec_words.misplaced_option)
            options = {option: action.nargs != 0 for action in sub._actions for option in action.option_strings}
            sub.set_defaults(spec_options=options)
    return parser


_RULE_EPILOG = """\
The text is the rule's section of docs/fix.md (Markdown): why, what it rewrites, how safe the
fix is, and examples.

examples:
  $ targetlang rule target-string
  $ targetlang rule --all
  $ targetlang rule --output-format json canon-target
"""


def _add_rule_parser(commands: Any) -> None:
    from ..fix import RULES

    summary = "explain a rule of fix: why, what it rewrites, how safe"
    rule = commands.add_parser(
        "rule",
        help=summary,
        description=summary,
        epilog=_RULE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    which = rule.add_mutually_exclusive_group(required=True)
    which.add_argument("rule", metavar="RULE-ID", nargs="?", help=f"the rule's id ({', '.join(RULES)})")
    which.add_argument("--all", action="store_true", help="every rule, one after another")
    add_output_format(
        rule, ("text", "json"), "text (the Markdown, the default) or json (id, safety, summary and explanation of each)"
    )
    rule.set_defaults(run=_rule)


def _rule(args: argparse.Namespace) -> int:
    from ..fix import RULES
    from ..fix._rule_docs import rule_doc

    if not args.all and args.rule not in RULES:
        print(f"error: unknown rule {args.rule!r}; the rules are: {', '.join(RULES)}", file=sys.stderr)
        return 2
    rules = [RULES[name] for name in (RULES if args.all else [args.rule])]
    # a rule whose file is not written yet is explained by its summary rather than not at all
    texts = [rule_doc(rule.id) or f"## {rule.id}\n\n{rule.summary}.\n" for rule in rules]
    if args.output_format == "json":
        records = [
            {"id": rule.id, "safety": rule.safety, "summary": rule.summary, "explanation": text}
            for rule, text in zip(rules, texts, strict=True)
        ]
        print(json.dumps(records if args.all else records[0], indent=2, ensure_ascii=False))
    else:
        sys.stdout.write("\n".join(texts))
    return 0


def _leaves(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parsers of the subcommands under ``parser``, at any depth (``logs check``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # each once, aliases aside
                children = list(_leaves(sub))
                yield from children or [sub]


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that Python's last flush at exit does not report the
    broken pipe (``targetlang check | head``) a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # no real file descriptor behind stdout: nothing will be flushed to a dead pipe


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one: writing to it is an error that
    says so, where Python would have dropped the output silently."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Terminated(BaseException):
    """SIGTERM or SIGHUP, unwinding as Ctrl-C does, so files half written are removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread() or not names:
        yield  # signal handlers belong to the main thread
        return

    def stop(signum: int, frame: object) -> None:
        raise _Terminated(signum)

    # An ignored signal stays ignored (`nohup targetlang ...`), as Python leaves an ignored SIGINT.
    names = [name for name in names if signal.getsignal(getattr(signal, name)) is not signal.SIG_IGN]
    before = {name: signal.signal(getattr(signal, name), stop) for name in names}
    try:
        yield
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)


def _clean_up_unfinished() -> None:
    """The temporary files a stop left, where it landed outside their own handlers."""
    output = sys.modules.get("targetlang._atomic_file")  # not imported: no file begun
    if output is not None:
        output.clean_up_unfinished()


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The command line read, or the exit status where argparse exits (0 for --help and --version,
    2 for a usage error, with what it printed)."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    try:
        misplaced = _command_option(parser, words)
        if misplaced is not None:
            parser.error(misplaced)
        args = parser.parse_args(words)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 2)
    args.argv = words  # the command line a message shows again, corrected
    return args


def _command_option(parser: argparse.ArgumentParser, words: Sequence[str]) -> str | None:
    """What to say of an option written before the command that is not targetlang's own but a
    command's (``targetlang --jsonish``, ``targetlang --json parse llvm``): argparse would ask for
    a COMMAND, or call it unrecognized. ``None`` when there is none."""
    own = {option: action.nargs != 0 for action in parser._actions for option in action.option_strings}
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    index = 0
    while index < len(words):
        word = words[index]
        name = word.split("=", 1)[0]
        if word == "--" or not word.startswith("-") or name in ("-h", "--help", "--version"):
            return None  # the command, or what argparse answers itself
        if name not in own:
            subs = [sub for sub in _leaves(parser) if name in sub._option_string_actions]
            if not subs:  # (argparse would ask for a COMMAND when nothing follows)
                return f"unrecognized arguments: {word}"
            having = [sub.prog for sub in subs]
            takes_value = "=" not in word and any(sub._option_string_actions[name].nargs != 0 for sub in subs)
            option = list(words[index : index + 2]) if takes_value else [word]  # with its value
            rest = words[index + len(option) :]
            after = next((i for i, w in enumerate(rest) if w in commands), None)
            names = [prog.removeprefix(f"{parser.prog} ") for prog in having]
            if after is not None and rest[after] in names:
                # the command given: the same line, the option (and its value) moved after it
                moved = [*words[:index], *rest[: after + 1], *option, *rest[after + 1 :]]
                example = f"'{' '.join(['targetlang', *(shlex.quote(w) for w in moved)])}'"
            elif len(names) == 1:
                example = f"'targetlang {names[0]} {name} ...'"
            else:
                example = f"'targetlang COMMAND {name} ...' (COMMAND: {', '.join(names)})"
            return f"{name} is an option of a command, not of targetlang: it goes after the command, as in {example}"
        index += 2 if own[name] and "=" not in word else 1
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (``sys.argv[1:]`` when ``None``) and return the exit status."""
    try:
        with _terminated_as_interrupted():
            # The command line is read and the command's modules are imported with the stops
            # held: a handler that raises inside an import can crash an extension module's
            # initialisation (orjson's, now and then) or, on Python 3.11, turn into a
            # RuntimeError in the middle of making a dataclass, and one that raised while the
            # options were read would escape this try. Nothing is written yet then, so a stop
            # may wait that long, and it arrives as the block ends, in the try.
            with signals_held():
                if sys.stdout is None:  # started with standard output closed (`targetlang fmt llvm >&-`)
                    sys.stdout = _ClosedOutput()
                parsed = _arguments(argv)
                if isinstance(parsed, int):
                    sys.stdout.flush()  # --help or --version to a full disk fails here, and says so
                    return parsed
                args = parsed
                for module in (*_EVERY_COMMAND_IMPORTS, *getattr(args, "imports", ())):
                    with contextlib.suppress(ImportError):  # the command says what is missing
                        importlib.import_module(module)
            run: Callable[[argparse.Namespace], int] = args.run
            status = run(args)
            sys.stdout.flush()  # a full disk is found here, while it can still be reported
            return status
    except _Terminated as ended:
        _clean_up_unfinished()
        say_stopped(ended.signum)
        return 128 + ended.signum
    except KeyboardInterrupt:
        _clean_up_unfinished()
        say_stopped(signal.SIGINT)
        return 130
    except (InputError, TargetError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except _UsageError as err:
        print(f"{args.usage()}{args.command}: error: {err}", file=sys.stderr, end="\n")
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    except OSError as err:
        # Not a bug: the system refused (a full disk, a closed or broken output).
        what = f"cannot write {err.filename}" if err.filename else "cannot write the output"
        print(f"error: {what}: {err.strerror or err}", file=sys.stderr)
        _quiet_stdout()
        return 1
    except UnicodeEncodeError as err:  # e.g. an argument with undecodable bytes, printed back
        print(f"error: the output cannot be written: {err}", file=sys.stderr)
        return 1
    except Exception as err:
        # No traceback for anyone, but say plainly that this is targetlang's fault, not the input's.
        print(f"error: internal error (a bug in targetlang): {type(err).__name__}: {err}", file=sys.stderr)
        return 1
