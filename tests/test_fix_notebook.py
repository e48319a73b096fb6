"""``targetlang fix`` on Jupyter notebooks: the code cells' Python fixed, every other byte kept.

Each synthetic notebook below is written out byte for byte, and its expected result is the same
bytes with the replacements listed (each found exactly once). The real notebook is mlc-ai's
course notebook of episode 5 (tests/data/fix/SOURCES.md), compared outside the spans of the
cells' sources.
"""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.errors import SourceSyntaxError
from targetlang.fix import fix_source
from targetlang.fix._notebook import fix_notebook

from .conftest import Run, examples

DATA = Path(__file__).resolve().parent / "data" / "fix" / "notebooks"
REAL = DATA / "5_Automatic_Program_Optimization.ipynb"

LIST_INDENT_1 = r"""{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "Build with `tvm.target.Target(\"llvm -mcpu=skylake\")`:\n"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "t = tvm.target.Target(\"llvm -mcpu=skylake\")\n"
     ]
    }
   ],
   "source": [
    "import tvm\n",
    "t = tvm.target.Target(\"llvm -mcpu=skylake\")\n",
    "print(t)"
   ]
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
"""

STRING_INDENT_2 = r"""{
  "cells": [
    {
      "cell_type": "code",
      "execution_count": null,
      "metadata": {},
      "outputs": [],
      "source": "import tvm\ntarget = tvm.target.Target(\"cuda -arch=sm_80\")\n"
    }
  ],
  "metadata": {},
  "nbformat": 4,
  "nbformat_minor": 2
}"""

CRLF = (r"""{
 "cells": [
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": [
    "import tvm\r\n",
    "t = tvm.target.Target(\"llvm -mcpu=skylake\")\r\n",
    "print(t)\r\n"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 4
}
""").replace("\n", "\r\n")

ESCAPED = r"""{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": [
    "# caf\u00e9 \/ r\u00e9sum\u00e9\n",
    "t = Target(\"llvm -mcpu=caf\u00e9\")"
   ]
  }
 ],
 "metadata": {"title": "r\u00e9sum\u00e9"},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""

RAW_NON_ASCII = r"""{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": [
    "# café / résumé\n",
    "t = Target(\"llvm -mcpu=café\")"
   ]
  }
 ],
 "metadata": {"title": "résumé"},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""

MAGICS = r"""{
 "cells": [
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": [
    "%matplotlib inline\n",
    "!pip install apache-tvm\n",
    "import tvm\n",
    "tvm.target.Target?\n",
    "files = !ls\n",
    "s = (\"%d\"\n",
    "     % 3)\n",
    "if True:\n",
    "    %time tvm.target.Target(\"llvm -mcpu=a\")\n",
    "t = tvm.target.Target(\"llvm -mcpu=skylake\")\n"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": "%%bash\ntvmc compile --target \"llvm -mcpu=b\" m.onnx\n"
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": "%%time\nu = tvm.target.Target(\"cuda -arch=sm_80\")\n"
  }
 ],
 "metadata": {"language_info": {"name": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""

NUMBERED = r"""{"cells": [
{"cell_type": "raw", "metadata": {}, "source": "Target(\"llvm -mcpu=a\")"},
{"cell_type": "markdown", "metadata": {}, "source": ["# Build\n"]},
{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["x = 1\n", "y = Target(\"llvm -mcpu=a\")\n"]}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
"""

SPLIT = (
    r'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import tvm\n", '
    r'"t = tvm.target.Target(\"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon\")\n", "x = 1\n"]}], '
    r'"metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
)

# (id, notebook, [(before, after) replacements], findings as (cell, line, column), line length)
CASES: list[
    tuple[str, str, list[tuple[str, str]], list[tuple[int, int, int]], int | None]
] = [
    (
        "list source, indent 1; markdown and output untouched",
        LIST_INDENT_1,
        [
            (
                r'"t = tvm.target.Target(\"llvm -mcpu=skylake\")\n",',
                r'"t = tvm.target.Target({\"kind\": \"llvm\", \"mcpu\": \"skylake\"})\n",',
            )
        ],
        [(2, 2, 23)],
        None,
    ),
    (
        "string source, indent 2, no newline at the end",
        STRING_INDENT_2,
        [(r"\"cuda -arch=sm_80\"", r"{\"kind\": \"cuda\", \"arch\": \"sm_80\"}")],
        [(1, 2, 28)],
        None,
    ),
    (
        "CRLF in the strings and between the lines",
        CRLF,
        [
            (
                r'Target(\"llvm -mcpu=skylake\")\r\n",',
                r'Target({\"kind\": \"llvm\", \"mcpu\": \"skylake\"})\r\n",',
            )
        ],
        [(1, 2, 23)],
        None,
    ),
    (
        "non-ASCII escaped, and \\/, kept so",
        ESCAPED,
        [
            (
                r'Target(\"llvm -mcpu=caf\u00e9\")"',
                r'Target({\"kind\": \"llvm\", \"mcpu\": \"caf\u00e9\"})"',
            )
        ],
        [(1, 2, 12)],
        None,
    ),
    (
        "non-ASCII raw, kept so",
        RAW_NON_ASCII,
        [
            (
                r'Target(\"llvm -mcpu=café\")"',
                r'Target({\"kind\": \"llvm\", \"mcpu\": \"café\"})"',
            )
        ],
        [(1, 2, 12)],
        None,
    ),
    (
        "IPython magics kept byte for byte, a %%bash cell left alone",
        MAGICS,
        [
            (
                r'"t = tvm.target.Target(\"llvm -mcpu=skylake\")\n"',
                r'"t = tvm.target.Target({\"kind\": \"llvm\", \"mcpu\": \"skylake\"})\n"',
            ),
            (
                r"u = tvm.target.Target(\"cuda -arch=sm_80\")",
                r"u = tvm.target.Target({\"kind\": \"cuda\", \"arch\": \"sm_80\"})",
            ),
        ],
        [(1, 10, 23), (3, 2, 23)],
        None,
    ),
    (
        "cells numbered as ruff numbers them: raw and Markdown ones counted",
        NUMBERED,
        [
            (
                r'"y = Target(\"llvm -mcpu=a\")\n"',
                r'"y = Target({\"kind\": \"llvm\", \"mcpu\": \"a\"})\n"',
            )
        ],
        [(3, 2, 12)],
        None,
    ),
    (
        "a fix over several lines: one string a line, as nbformat splits",
        SPLIT,
        [
            (
                r'"t = tvm.target.Target(\"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon\")\n"',
                r'"t = tvm.target.Target({\n", "    \"kind\": \"llvm\",\n", '
                r'"    \"mtriple\": \"aarch64-linux-gnu\",\n", '
                r'"    \"mcpu\": \"cortex-a72\",\n", "    \"mattr\": [\"+neon\"],\n", "})\n"',
            )
        ],
        [(1, 2, 23)],
        60,
    ),
]


def _replaced(text: str, replacements: list[tuple[str, str]]) -> str:
    for before, after in replacements:
        assert text.count(before) == 1, before
        text = text.replace(before, after)
    return text


@pytest.mark.parametrize(
    ("notebook", "replacements", "positions", "line_length"),
    [case[1:] for case in CASES],
    ids=[c[0] for c in CASES],
)
def test_a_notebook_changes_only_in_its_fixed_cells(
    notebook: str,
    replacements: list[tuple[str, str]],
    positions: list[tuple[int, int, int]],
    line_length: int | None,
) -> None:
    result = fix_source(notebook, path="a.ipynb", line_length=line_length)
    assert result.text == _replaced(notebook, replacements)
    assert [(f.cell, f.line, f.column) for f in result.findings] == positions
    assert all(f.applied and f.path == "a.ipynb" for f in result.findings)
    assert result.errors == ()


@pytest.mark.parametrize(
    "notebook",
    [
        pytest.param(
            r'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], '
            r'"source": ["t = Target({\"kind\": \"llvm\"})\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
            id="modern",
        ),
        pytest.param(
            r"""{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}""",
            id="no cells",
        ),
        pytest.param(
            r'{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "Target(\"llvm -mcpu=a\")"}], '
            r'"metadata": {"target": "llvm -mcpu=a"}, "nbformat": 4, "nbformat_minor": 5}',
            id="targets outside code cells",
        ),
        pytest.param(
            r'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], '
            r'"source": "t = Target(\"llvm -mcpu=a\")"}], '
            r'"metadata": {"kernelspec": {"language": "R", "name": "ir"}}, "nbformat": 4, "nbformat_minor": 5}',
            id="an R notebook",
        ),
    ],
)
def test_a_notebook_with_nothing_to_fix_is_byte_identical(notebook: str) -> None:
    result = fix_source(notebook, path="a.ipynb", unsafe=True)
    assert result.text == notebook
    assert result.findings == ()


def test_a_cell_that_does_not_parse_is_left_alone_and_named() -> None:
    notebook = (
        r'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": "def f(:\n"},'
        r' {"cell_type": "code", "metadata": {}, "outputs": [], "source": "t = Target(\"llvm -mcpu=a\")"}],'
        r' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    result = fix_source(notebook, path="a.ipynb")
    assert result.text == notebook.replace(
        r"Target(\"llvm -mcpu=a\")", r"Target({\"kind\": \"llvm\", \"mcpu\": \"a\"})"
    )
    assert len(result.errors) == 1
    assert result.errors[0].startswith("a.ipynb:cell 1:1: cannot parse Python: ")
    assert result.errors[0].endswith("; cell left alone")


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (
            '{\n "cells": [\n  {"cell_type": "code",}\n ]\n}\n',
            "a.ipynb: not a Jupyter notebook: invalid JSON: Expecting property name enclosed in double quotes",
            3,
        ),
        (
            '{\n "nbformat": 3,\n "worksheets": []\n}\n',
            "a.ipynb: not an nbformat 4 notebook: its 'nbformat' is 3 (jupyter nbconvert --to notebook upgrades it)",
            1,
        ),
        ("[1, 2]\n", "a.ipynb: not a Jupyter notebook: the JSON is no object", 1),
        (
            '\n{"nbformat": 4, "cells": {}}',
            "a.ipynb: not an nbformat 4 notebook: 'cells' is no list of objects",
            2,
        ),
        (
            '{"nbformat": 4, "cells": [\n{"cell_type": "code", "source": [1]}]}',
            "a.ipynb: not an nbformat 4 notebook: a cell's 'source' is no string or list of strings",
            2,
        ),
    ],
    ids=[
        "invalid JSON",
        "nbformat 3",
        "an array",
        "cells no list",
        "source no strings",
    ],
)
def test_what_is_no_notebook_is_an_error_with_its_position(
    text: str, message: str, line: int
) -> None:
    with pytest.raises(SourceSyntaxError) as caught:
        fix_source(text, path="a.ipynb")
    assert (caught.value.message, caught.value.line) == (message, line)


_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "\n",
        "\r\n",
        "\u00e9",
        '"',
        "\\",
        "/",
        "\t",
        "\x01",
        "\U0001f600",
        " ",
        "x = 1\n",
    ]
)
_TEXTS = st.lists(_PIECES, max_size=10).map("".join)
_SOURCES = st.one_of(
    _TEXTS,
    _TEXTS.map(lambda text: text.splitlines(keepends=True)),
    st.lists(_TEXTS, max_size=4),
)
_CELLS = st.lists(
    st.fixed_dictionaries(
        {
            "cell_type": st.sampled_from(["code", "markdown", "raw"]),
            "metadata": st.just({}),
            "source": _SOURCES,
        }
    ),
    max_size=4,
)


def _text_of(source: str | list[str]) -> str:
    return source if isinstance(source, str) else "".join(source)


@settings(max_examples=examples(150), deadline=None)
@given(_CELLS, st.sampled_from([None, 1, 2, "\t"]), st.booleans(), st.booleans())
def test_any_notebook_keeps_its_bytes_and_its_sources_shape(
    cells: list[dict[str, Any]],
    indent: int | str | None,
    ascii_only: bool,
    sort_keys: bool,
) -> None:
    book = {
        "cells": cells,
        "metadata": {"k": "r\u00e9sum\u00e9 \\/"},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    text = json.dumps(book, indent=indent, ensure_ascii=ascii_only, sort_keys=sort_keys)
    assert fix_notebook(text, lambda code: (code, [])) == (text, [])
    # a fixer that makes every 'a' two characters and drops every 'b'
    fixed, _ = fix_notebook(
        text, lambda code: (code.replace("a", "AB").replace("b", ""), [])
    )
    new = json.loads(fixed)
    for old_cell, new_cell in zip(cells, new["cells"], strict=True):
        assert type(new_cell["source"]) is type(old_cell["source"])
        if old_cell["cell_type"] == "code":
            assert _text_of(new_cell["source"]) == _text_of(old_cell["source"]).replace(
                "a", "AB"
            ).replace("b", "")
        else:
            assert new_cell == old_cell
    assert new["metadata"] == book["metadata"]


# ------------------------------------------------------------------ a real notebook


def _source_spans(text: str) -> list[tuple[int, int]]:
    """Where each cell's "source" value lies, found by its key (the file has one per cell)."""
    decoder = json.JSONDecoder()
    spans = []
    for match in re.finditer(r'\n *"source": ', text):
        _, end = decoder.raw_decode(text, match.end())
        spans.append((match.end(), end))
    return spans


def _without_sources(book: dict[str, Any]) -> dict[str, Any]:
    return {
        **book,
        "cells": [
            {k: v for k, v in cell.items() if k != "source"} for cell in book["cells"]
        ],
    }


@pytest.mark.parametrize(
    ("unsafe", "changed"), [(False, [56, 58, 62, 63, 88]), (True, [56, 58, 62, 63, 88])]
)
def test_a_real_notebook_changes_only_in_the_sources_of_its_fixed_cells(
    unsafe: bool, changed: list[int]
) -> None:
    original = REAL.read_text(encoding="utf-8")
    result = fix_source(original, path=REAL.name, unsafe=unsafe)
    before, after = _source_spans(original), _source_spans(result.text)
    assert len(before) == len(after) == 98
    # outside the sources: the same bytes, piece by piece
    edges = [0, *(i for span in before for i in span), len(original)]
    new_edges = [0, *(i for span in after for i in span), len(result.text)]
    for k in range(0, len(edges), 2):
        assert (
            original[edges[k] : edges[k + 1]]
            == result.text[new_edges[k] : new_edges[k + 1]]
        )
    differ = [
        n
        for n, (a, b) in enumerate(zip(before, after, strict=True), 1)
        if original[slice(*a)] != result.text[slice(*b)]
    ]
    assert differ == changed
    old, new = json.loads(original), json.loads(result.text)
    assert _without_sources(old) == _without_sources(new)
    assert [cell for n, cell in enumerate(old["cells"], 1) if n not in changed] == [
        cell for n, cell in enumerate(new["cells"], 1) if n not in changed
    ]
    # the fixed cells, by hand: each legacy string of episode 5 is llvm with one core
    sources = ["".join(cell["source"]) for cell in new["cells"]]
    assert 'target={"kind": "llvm", "num-cores": 1},\n' in sources[55]
    # and the three passed to compile_tir (tvm.meta_schedule.tir_integration), a target API too
    assert 'target={"kind": "llvm", "num-cores": 1})\n' in sources[57]
    assert "".join(sources).count('"llvm --num-cores=1"') == 0


def test_fix_check_names_the_cells_of_a_real_notebook(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("nb").mkdir()
    (Path("nb") / "ep5.ipynb").write_bytes(REAL.read_bytes())
    status, out, err = run("fix", "--check", "nb")
    assert status == 1
    assert [
        line.split(": ", 1)[0] for line in out.splitlines() if not line.startswith(" ")
    ] == [
        "nb/ep5.ipynb:cell 56:5:12",
        "nb/ep5.ipynb:cell 58:1:71",
        "nb/ep5.ipynb:cell 62:3:12",
        "nb/ep5.ipynb:cell 63:1:71",
        "nb/ep5.ipynb:cell 88:3:12",
        "nb/ep5.ipynb:cell 88:9:91",
    ]
    assert (
        err.splitlines()[-1]
        == "6 findings in 1 file, 6 fixable; 1 file would change"
    )
    assert (Path("nb") / "ep5.ipynb").read_bytes() == REAL.read_bytes()


def test_fix_write_and_stdin_keep_a_notebook_json(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.ipynb").write_text(STRING_INDENT_2, encoding="utf-8")
    expected = STRING_INDENT_2.replace(
        r"\"cuda -arch=sm_80\"", r"{\"kind\": \"cuda\", \"arch\": \"sm_80\"}"
    )
    assert run("fix", "--write", "a.ipynb") == (
        0,
        "",
        "1 finding in 1 file, 1 fixed; 1 file changed\n",
    )
    assert Path("a.ipynb").read_text(encoding="utf-8") == expected
    status, out, _ = run(
        "fix", "--stdin-filename", "b.ipynb", "-", stdin=STRING_INDENT_2.encode()
    )
    assert (status, out) == (0, expected)


def test_a_cell_that_does_not_parse_is_an_error_line_and_the_rest_is_fixed(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    notebook = (
        r'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": "x = 1\nif:\n"},'
        r' {"cell_type": "code", "metadata": {}, "outputs": [], "source": "t = Target(\"llvm -mcpu=a\")"}],'
        r' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    Path("a.ipynb").write_text(notebook, encoding="utf-8")
    status, out, err = run("fix", "--write", "a.ipynb")
    assert out == ""
    assert err.splitlines()[0].startswith(
        "error: a.ipynb:cell 1:2: cannot parse Python: "
    )
    assert err.splitlines()[1] == "1 finding in 1 file, 1 fixed; 1 file changed"
    assert status != 0
    fixed = notebook.replace(
        r"Target(\"llvm -mcpu=a\")", r"Target({\"kind\": \"llvm\", \"mcpu\": \"a\"})"
    )
    assert Path("a.ipynb").read_text(encoding="utf-8") == fixed


# ------------------------------------------------------------------ writing a source back


def _one_cell(source: list[str]) -> str:
    book = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(book, indent=1)


@pytest.mark.parametrize(
    ("source", "before", "after", "expected"),
    [
        (
            ["", 't = Target("llvm -mcpu=a")\n', "", "x = 1"],
            "llvm -mcpu=a",
            "llvm",
            ["", 't = Target("llvm")\n', "", "x = 1"],
        ),
        (
            ["x = 1\n", "", "", "y = 2\n"],
            "y = 2",
            "y = 3",
            ["x = 1\n", "", "", "y = 3\n"],
        ),
        (["y = 2\n", ""], "y = 2", "y = 33", ["y = 33\n", ""]),
        (["", "y = 2"], "y = 2", "y = 33", ["", "y = 33"]),
        (
            ["a = 1\n", "", "b = 2\n", "c = 3\n"],
            "b = 2\n",
            "b = 2\nb2 = 4\n",
            ["a = 1\n", "", "b = 2\n", "b2 = 4\n", "c = 3\n"],
        ),
    ],
    ids=[
        "the issue's cell",
        "two in a row",
        "one at the end",
        "one at the start",
        "a line added after",
    ],
)
def test_the_empty_strings_of_a_changed_source_list_stay_where_they_were(
    source: list[str], before: str, after: str, expected: list[str]
) -> None:
    fixed, _ = fix_notebook(
        _one_cell(source), lambda code: (code.replace(before, after), [])
    )
    assert fixed == _one_cell(expected)


def _long_cell(padding: int) -> list[str]:
    """A cell of two legacy targets with ``padding`` lines between (a blank one in five)."""
    middle = [
        f"value_{i} = compute({i}, name='v{i}')\n" if i % 5 else "\n"
        for i in range(padding)
    ]
    return [
        "import tvm\n",
        't = tvm.target.Target("llvm -mcpu=skylake")\n',
        *middle,
        'u = tvm.target.Target("cuda -arch=sm_80")\n',
    ]


@pytest.mark.parametrize("padding", [2000, 5000], ids=["70 KB", "5,000 lines"])
def test_a_long_cell_is_matched_by_lines_and_only_its_changed_lines_by_characters(
    padding: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Characters are matched one by one only within the lines that change: over a cell's whole
    middle, difflib's character matching took 59 s for 70 KB."""
    import targetlang.fix._notebook as notebook

    largest = 0

    class Counted(SequenceMatcher[str]):
        def __init__(self, junk: None, a: str, b: str, autojunk: bool = True) -> None:
            nonlocal largest
            largest = max(largest, len(a), len(b))
            if largest > 100:  # fail at once, not after a minute of matching
                raise AssertionError(f"{largest} characters matched one by one")
            super().__init__(junk, a, b, autojunk)

    monkeypatch.setattr(notebook, "SequenceMatcher", Counted)
    text = _one_cell(_long_cell(padding))
    result = fix_source(text, path="a.ipynb")
    assert result.text == _replaced(
        text,
        [
            (
                r'"t = tvm.target.Target(\"llvm -mcpu=skylake\")\n"',
                r'"t = tvm.target.Target({\"kind\": \"llvm\", \"mcpu\": \"skylake\"})\n"',
            ),
            (
                r'"u = tvm.target.Target(\"cuda -arch=sm_80\")\n"',
                r'"u = tvm.target.Target({\"kind\": \"cuda\", \"arch\": \"sm_80\"})\n"',
            ),
        ],
    )
    assert [(f.cell, f.line) for f in result.findings] == [(1, 2), (1, padding + 3)]
    assert 0 < largest <= 100
