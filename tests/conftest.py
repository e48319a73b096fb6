"""Shared test helpers: the test data (tests/data, see its SOURCES.md) and the ``run`` fixture."""

from __future__ import annotations

import atexit
import gc
import importlib.util
import io
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest
from hypothesis import is_hypothesis_test
from hypothesis import settings as hypothesis_settings

from targetlang._cli import main

pytest.register_assert_rewrite("tests.doc_refresh")
from .doc_refresh import REFRESH  # noqa: E402  (after its asserts are registered for rewriting)

DATA = Path(__file__).resolve().parent / "data"
T = TypeVar("T")


def data_path(*parts: str) -> Path:
    """A path under tests/data; fails loudly when the file is missing."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data missing: {path}")
    return path


def read_jsonl(*parts: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines file under tests/data."""
    with data_path(*parts).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def oracle_script(name: str) -> ModuleType:
    """The recording script ``tests/oracle/NAME.py`` as a module, for its inputs and helpers (it
    imports its neighbours, such as ``oracle_common``, by name: their folder goes on the path)."""
    path = Path(__file__).resolve().parent / "oracle" / f"{name}.py"
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


# Each property (a hypothesis test) states the examples it is worth, and a check over a population
# (real files, every text of the data) takes them all: CI runs them all, in a step of its own
# (`TARGETLANG_EXAMPLES=all python -m pytest -m property`, .ci/run), and the README's test command
# a quarter of them (of a property's examples, at least 25), which keeps the suite short.
_EXAMPLES = os.environ.get("TARGETLANG_EXAMPLES", "")
if _EXAMPLES not in ("", "all"):
    raise pytest.UsageError(f"TARGETLANG_EXAMPLES={_EXAMPLES!r}: the one value it takes is 'all'")
ALL_EXAMPLES = _EXAMPLES == "all"
_FEWEST = 25


def examples(full: int) -> int:
    """The examples a property worth ``full`` runs: all of them under ``TARGETLANG_EXAMPLES=all``."""
    return full if ALL_EXAMPLES else min(full, max(_FEWEST, full // 4))


def sample(population: Sequence[T]) -> list[T]:
    """The part of ``population`` (real files, every text of the data) a check over all of it
    runs on: every fourth item, all of them under ``TARGETLANG_EXAMPLES=all``."""
    return list(population) if ALL_EXAMPLES else list(population[::4])


# (the properties that state no number: hypothesis's 100)
hypothesis_settings.register_profile("suite", max_examples=examples(100))
hypothesis_settings.load_profile("suite")


# A run started with Ctrl-C ignored (under nohup, as a background job of a script) would start
# every command the tests run with it ignored too, and the tests of Ctrl-C would see it do nothing:
# Python's own handler, set here, is reset to the default in each child.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


if os.environ.get("PYTEST_XDIST_WORKER"):
    # A worker has sent every report by the time Python ends it: freeing the gigabyte it holds,
    # object by object, took 2-3 s at the end of every run. The last exit handler (the first
    # registered) ends the process at once, after the others (pytest's own clean-up) have run.
    def _end_at_once() -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)

    atexit.register(_end_at_once)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--refresh-docs",
        action="store_true",
        help="write what the docs' transcripts print now in their place instead of failing (tests/doc_refresh.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    REFRESH["docs"] = bool(config.getoption("--refresh-docs"))


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection built (the modules, the test items with their parameters, the tables)
    # lives until the session ends, and so does much of what tests keep (parsers, fixtures of
    # module scope). The collector's full collections walked all of it again and again: 60-90 a
    # worker, 0.2 s each, a sixth of the suite's time. Frozen, and with full collections ten
    # times rarer, that is 3-4 s; young cycles are freed as often as before (the thresholds of
    # generations 0 and 1 are Python's).
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)


# The slow tests: `python -m pytest -m "not slow"` (the quick loop of the README) leaves them
# out, and every run starts them first, slowest first, so that with one worker per core none of them
# begins when the others are done and runs alone at the end. An entry is a test with its
# parameters, a test function (all its parameters) or a module; a test takes the first entry it
# falls under, in the order test, function, module. The figures are the seconds one test takes on a
# quiet core (the slowest one of a function or a module not listed on its own), measured with
# `--durations`, and set the order; a test past about a second, or a module of many that add up,
# belongs here.
SLOW: dict[str, float] = {
    "test_attacks.py::test_no_attack_breaks_an_invariant[stats-distinct-targets]": 16,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-parent-killed]": 10,
    "test_fix_flow.py::test_the_scopes_are_libcst_s": 9.4,
    "test_attacks.py::test_no_attack_breaks_an_invariant[explain-huge-array]": 8,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-group-interrupt]": 7.5,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-deep-python]": 7,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-notebook]": 6,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-special-files]": 6,
    "test_fix_fixed_point.py::test_a_second_run_has_nothing_to_apply[2030db36e4/"
    "tests__python__s_tir__meta_schedule__test_meta_schedule_trace_apply.py.before]": 7.5,
    "test_fix_tvm_migration.py::test_fixed_file_compiles_and_keeps_no_legacy_target[2030db36e4/"
    "tests__python__s_tir__meta_schedule__test_meta_schedule_trace_apply.py.before]": 7.3,
    "test_logs_jobs.py::test_the_shortcut_and_two_processes_give_what_the_general_path_gives": 5.7,
    "test_fix_generated.py::test_a_deep_expression_python_reads_is_fixed": 5.6,
    "test_terminals.py::test_every_text_of_the_test_data_reads_the_same": 5.6,
    "test_attacks.py::test_no_attack_breaks_an_invariant": 3,
    "test_fix_generated.py::test_fixed_source_parses": 5.2,
    "test_composite_properties.py::test_equality_respects_ordered_arrays_at_any_depth": 4.4,
    "test_json_reading.py::test_every_json_text_of_the_test_data_reads_as_the_grammar_reads_it": 4,
    "fixproof/test_targets_in_source.py::test_findings_are_current": 5.5,
    "test_attacks.py::test_no_attack_breaks_an_invariant[fix-startup-interrupt]": 5,
    "fixproof/test_targets_in_source.py::test_recordings_match_the_finder": 3.8,
    "test_fix_fixed_point.py::test_a_second_run_has_nothing_to_apply": 3.8,
    "test_fix_tvm_migration.py::test_fixed_file_compiles_and_keeps_no_legacy_target": 3.6,
    "test_fix_generated.py::test_source_without_targets_comes_back_byte_for_byte": 3.7,
    "test_signals.py::test_a_stop_to_fix_j2_ends_it_cleanly": 3.3,
    "test_fix_fixed_point.py::test_generated_code_reaches_the_fixed_point_in_one_run": 3.2,
    "test_fix_generated.py::test_written_dict_is_the_migrated_target": 3.2,
    "test_fix_flow.py::test_a_safe_fix_never_changes_what_a_string_use_sees": 3.2,
    "test_eras.py::test_the_generators_reach_accepted_targets": 3,
    "test_logs_jobs.py::test_a_big_log_gives_the_same_output_on_every_core": 3,
    "test_memory_stats.py::test_stats_of_distinct_long_targets_stays_under_a_cap": 2.7,
    "test_fix_generated.py::test_safe_fixes_are_applied_and_only_they": 2.7,
    "test_fix_generated.py::test_second_run_changes_nothing": 2.6,
    "test_fix.py::test_the_starts_of_reported_nodes_are_the_position_providers": 2.5,
    "test_caches.py::test_a_log_of_distinct_targets_is_read_in_flat_memory": 2.5,
    "test_eras.py::test_e2_texts_print_back": 2.3,
    "test_fuzz_harnesses.py::test_every_target_keeps_its_promises_on_its_stored_corpus": 2.2,
    "test_fix_notebook.py::test_a_long_cell_is_matched_by_lines_and_only_its_changed_lines_by_characters": 2,
    "test_limits.py::test_max_depth_is_reached_however_deep": 2,
    "test_json_reading.py::test_grammar_generated_json_reads_as_the_grammar_reads_it": 1.9,
    "test_fix_diff.py::test_a_document_of_32000_changed_blocks_is_diffed_whole": 1.8,
    "test_attacks.py::test_the_harness_runs_from_the_command_line": 1.8,
    "test_composite_properties.py::test_equality_ignores_attribute_order_and_unordered_arrays": 1.8,
    "test_tvmc.py::test_tokens_agree_with_tvmc_on_every_text_it_read_whole": 1.7,
    "test_logs_jobs.py::test_migrate_in_place_on_every_core": 1.7,
    "test_eras.py::test_whitespace_era_texts_print_back": 1.7,
    "test_packaging.py::test_the_wheel_carries_the_licence_and_the_metadata": 1.7,
    "test_legacy_reading.py::test_the_quick_reading_is_the_general_one_on_generated_options": 1.7,
    "test_properties.py::test_lossless_text_of_a_canonical_target": 1.6,
    "test_logs_jobs.py::test_migrated_lines_come_back_in_shared_memory_or_not": 1.6,
    "test_memory_stats.py::test_explain_of_a_long_array_stays_under_a_cap": 1.5,
    "test_memory_stats.py::test_explain_of_a_long_value_stays_under_a_cap": 1.5,
    "test_memory_bounds.py::test_a_json_spec_two_million_hosts_deep_is_refused_in_little_memory": 1.5,
    "test_fuzz_harnesses.py::test_seeds_are_the_real_texts_and_log_lines_of_tests_data": 1.4,
    "test_legacy_reading.py::test_the_quick_reading_is_the_general_one_on_grammar_texts": 1.2,
    "test_composite_properties.py::test_lossless_identity_of_every_text_form": 1.2,
    "test_composite_properties.py::test_canonical_round_trip_and_idempotence": 1.2,
    "test_terminals.py::test_a_long_input_parses_in_bounded_memory": 1.1,
    "test_scanner.py::test_every_text_of_the_test_data_reads_as_the_grammar_reads_it": 1.1,
    "test_properties.py::test_json_text_prints_back_exactly": 1.1,
    "test_properties.py::test_grammar_text_prints_back_exactly": 1.1,
    "test_scanner.py::test_random_mixes_of_special_characters_read_as_the_grammar_reads_them": 1.1,
    "test_properties.py::test_canonical_is_idempotent": 1,
    "test_fix.py::test_the_walk_meets_the_nodes_libcsts_visit_meets_in_its_order": 1,
    "test_json_reading.py::test_generated_configs_read_as_the_grammar_reads_them": 1,
    "test_properties.py::test_resolve_is_idempotent": 1,
    "test_terminals.py::test_interpret_keeps_the_characters_its_offsets_name": 2.7,
    "test_limits.py::test_deep_json_holds_its_text_once": 2.6,
    "test_properties.py::test_legacy_grammar_text_prints_back_exactly": 2.5,
    "test_scanner.py::test_grammar_generated_legacy_strings_read_as_the_grammar_reads_them": 2.5,
    "test_terminals.py::test_random_mixes_of_special_characters_read_the_same": 1.9,
    "test_properties.py::test_canonical_parses_back_to_an_equal_target": 1.9,
    "test_logs.py::test_generated_records_give_every_target_span_exactly": 1.8,
    "test_terminals.py::test_grammar_generated_texts_read_the_same": 1.8,
    "test_legacy_reading.py::test_the_quick_reading_is_the_general_one_on_every_text_of_the_test_data": 1.5,
    "test_fix_suppress.py::test_add_ignore_on_tvm_s_own_files": 1.4,
    "test_cli.py::test_program_statuses": 1.3,
    "test_properties.py::test_json_round_trip": 1.3,
    "test_logs_inputs.py::test_a_big_gzipped_log_is_read_in_flat_memory": 1.2,
    "test_modern_releases.py::test_a_release_added_as_data_is_written_for_with_no_code_change": 1.2,
    "test_composite_properties.py::test_json_round_trip": 1.2,
    "test_fix_generated.py::test_any_text_returns_or_raises_syntax_error": 1.1,
    "test_tvmc.py::test_generated_lists_read_back": 1.1,
    "test_caches.py::test_distinct_long_specs_leave_little_held_once_dropped": 1.1,
    "test_fix_cli.py::test_jobs_do_not_change_the_output": 1,
    "test_logs_migrate.py::test_generated_logs_change_only_their_targets_and_settle": 1,
    "test_memory_bounds.py::test_fix_refuses_a_pyproject_with_a_long_dotted_key_within_the_bounds": 0.9,
    "test_logs.py::test_generated_logs_read_back_whole": 0.9,
    "test_fix_diff.py::test_the_walk_side_by_side_is_a_right_patch": 0.9,
    "test_caches.py::test_threads_parse_while_others_clear_the_caches": 0.9,
    "test_fix_text_places.py::test_a_python_file_still_needs_libcst": 0.9,
    "test_fix_notebook.py::test_a_real_notebook_changes_only_in_the_sources_of_its_fixed_cells": 0.8,
    "test_modern_releases.py::test_the_release_added_as_data_is_the_default_and_unknown_without_it": 0.7,
    "test_fix_modern.py::test_the_whole_tutorial_file_is_fixed_with_docs": 0.7,
    "test_logs.py::test_docs_examples_are_real": 0.7,
    "test_limits.py::test_eight_threads_read_the_corpus_as_one_does": 0.6,
    "test_fix_notebook.py::test_any_notebook_keeps_its_bytes_and_its_sources_shape": 0.6,
    "test_modern_releases.py::test_explain_of_a_release_added_as_data": 0.5,
    "test_cli.py::test_docs_examples_are_real": 0.5,
    "test_cli_command_line.py::test_help_and_version_that_cannot_be_written_fail": 0.5,
    "test_docs_console.py::test_console_session": 0.8,
    "test_limits.py::test_long_runs_of_each_special_character_are_answered": 0.6,
    "test_logs_migrate.py::test_sigterm_and_sighup_clean_up_as_ctrl_c_does": 0.9,
    "test_legacy_reading.py::test_the_spans_of_every_text_of_the_test_data_are_its_words": 1.6,
    "test_fix.py::test_imports_are_removed_as_libcsts_own_analysis_removes_them": 0.6,
    "test_layers.py::test_imports_point_down": 0.1,
    "test_fix_docs.py::test_python_example": 0.2,
    "test_fix_flow.py::test_real_code": 0.1,
    "test_registry.py::test_dump_then_load_gives_an_equal_registry": 0.9,
    "test_caches.py::test_clear_caches_while_another_thread_first_imports_the_caches": 0.4,
    "test_fix.py::test_safe_fix": 0.2,
    "test_logs_migrate.py::test_a_later_run_removes_what_a_killed_one_left": 0.8,
    "test_cli.py::test_output_that_cannot_be_written_is_an_error_not_a_bug": 0.5,
    "test_memory_bounds.py": 0.7,
    "test_releases.py::test_a_tag_is_what_that_release_registered": 0.3,
    "test_logs_migrate.py::test_an_ignored_sighup_stays_ignored": 0.6,
    "test_fix_docs.py::test_console_example": 0.2,
    "test_target.py::test_targets_of_a_user_registry_cross_process_boundaries": 0.5,
    "test_modern_release_goldens.py::test_the_recorded_migrations_are_what_migrate_writes_now": 0.3,
    "test_eras.py::test_any_text_is_read_or_cleanly_rejected": 0.5,
    "test_oracle_logs.py::test_targetlang_loads_logs_as_tvm_did": 0.3,
    "test_fix.py::test_unsafe_fix": 0.1,
    "test_logs_migrate.py::test_real_logs_change_only_their_targets": 0.1,
    "test_fix_cli.py::test_walk_skips_environments_and_caches": 0.1,
    "test_logs_migrate.py::test_a_full_disk_leaves_no_temporary_file": 0.4,
    "test_fix_cli.py::test_the_summary_names_the_options_each_finding_left_needs": 0.4,
    "test_atomic_file.py::test_standard_output_named_is_written_where_it_stands": 0.4,
    "test_fix_diff.py::test_a_file_of_ordinary_size_gets_difflibs_diff": 0.4,
    "test_limits.py::test_random_bytes_give_a_target_or_a_target_error": 0.4,
    "test_doctests.py::test_docstring_examples_run_as_written": 0.1,
    "test_logs_migrate.py::test_an_interrupt_at_any_call_leaves_no_temporary_file": 0.3,
    "test_packaging.py": 0.4,
    "test_tvmc.py::test_generated_tvm_lists_print_back": 0.3,
    "test_limits.py::test_a_limit_beyond_the_stack_gives_the_nesting_error_not_recursion_error": 0.3,
    "test_fix_notebook.py::test_fix_check_names_the_cells_of_a_real_notebook": 0.3,
    "test_fix_text_places.py::test_text_files_are_read_without_libcst": 0.4,
    "test_fix_text_places.py::test_the_tvm_tutorials_mattr_is_found_in_its_comments_and_fixed_with_docs": 0.4,
    "test_cli.py::test_program_error_exit_1_without_traceback": 0.3,
    "test_tvmc.py::test_any_text_reads_or_raises_a_target_error": 0.3,
    "test_cli.py::test_program_closed_pipe_is_quiet": 0.3,
    "test_limits.py::test_the_canonical_text_of_a_deep_chain_is_made_level_by_level": 0.3,
    "test_fix_report.py::test_rule_works_without_libcst": 0.3,
    "test_tvmc.py::test_tokens_keep_every_character_but_whitespace": 0.3,
    # each fixes TVM's big files (the tests of a file share the fix, made once in a process)
    "test_fix_tvm_migration.py": 1,
    "test_fix_fixed_point.py": 1,
    "test_logs_jobs.py": 1,
    # thousands of recorded cases, a millisecond each: what a quick loop can leave to the full run
    "test_differential_goldens.py": 0.01,
    "test_signals.py": 1,
}


def _slow_entry(nodeid: str) -> str | None:
    """The entry of :data:`SLOW` a test falls under, if any."""
    test = nodeid.removeprefix("tests/")
    function = test.split("[", 1)[0]
    module = function.split("::", 1)[0]
    return next((entry for entry in (test, function, module) if entry in SLOW), None)


def pytest_itemcollected(item: pytest.Item) -> None:
    # marked as each test is collected: `-m` deselects before the reordering below
    if _slow_entry(item.nodeid) is not None:
        item.add_marker(pytest.mark.slow)
    if is_hypothesis_test(getattr(item, "obj", None)):
        item.add_marker(pytest.mark.property)


@pytest.hookimpl(trylast=True)  # after pytest's own reordering (by fixtures), which would undo this
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def seconds(item: pytest.Item) -> float:
        entry = _slow_entry(item.nodeid)
        return 0.0 if entry is None else SLOW[entry]

    # sorted() is stable: the tests of one entry, and all the others, keep the order collected
    items[:] = sorted(items, key=lambda item: -seconds(item))


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(*argv, stdin=None)``: the ``targetlang`` command in this process; returns (status,
    stdout, stderr)."""

    def invoke(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            # A text stream over bytes, like the real sys.stdin: the CLI reads its .buffer.
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return invoke
