"""The house rules of docs/DESIGN (one way through the house), read from the package's source with ``ast``.

- (a) no import cycle between lorebook modules, function-level imports included;
- (b) only ``lorebook.llm_bridge`` imports ``llm``;
- (c) only ``lorebook.store`` and ``lorebook.migrations`` run SQL;
- (d) the core (``plugin/``) never imports ``lorebook.hooks``.

Each check is a function over a package tree, so each is also run on a small
planted violation: a check that cannot fail would pass silently.

What counts as an import: ``import x``, ``from x import y`` (relative ones
resolved), anywhere in a module (in functions too) except under
``if TYPE_CHECKING:``, which never runs; and ``importlib.import_module("x")``
with a literal name. ``from package import name`` is an import of
``package.name`` when that is a module, else of ``package``. Plugins that the
plugin manager registers by name (``plugins.DEFAULT_PLUGINS``) are not imports.

What counts as running SQL (rule c), outside store.py and migrations.py:
  1. a call of a method named ``execute``, ``executemany`` or ``executescript``
     (sqlite3 connections and cursors, ``Store.execute``, sqlite_utils);
  2. opening a database: ``sqlite3.connect(…)`` or ``Database(…)`` /
     ``sqlite_utils.Database(…)``; llm_bridge may open llm's own logs.db, which
     llm's API takes as a sqlite_utils Database (it runs no SQL itself);
  3. reaching for a Store's handles: any ``.conn`` or ``.db`` attribute;
  4. sqlite_utils on a handle named ``db``: ``db[…]``, ``db.query(…)``,
     ``db.table(…)``, ``db.execute(…)``.
Reading ``sqlite3`` exception classes is not running SQL, and a string that
looks like SQL is not flagged: only calls and handles are.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the folders that make up the import name `lorebook` (pyproject.toml: package-dir)
PACKAGE_DIRS = {"lorebook": "plugin", "lorebook.hooks": "hooks", "lorebook.templates": "templates"}
LLM_BRIDGE = "lorebook.llm_bridge"
SQL_MODULES = {"lorebook.store", "lorebook.migrations"}
SQL_OPENERS = {"lorebook.llm_bridge"}  # llm's logs.db (rule c.2 only)
EXECUTE_METHODS = {"execute", "executemany", "executescript"}
HANDLE_ATTRIBUTES = {"conn", "db"}
DB_METHODS = {"query", "table", "execute", "executemany", "executescript"}


# --- reading the package ---------------------------------------------------------------------


def read_package(root: Path, package_dirs: dict[str, str] = PACKAGE_DIRS) -> dict[str, tuple[Path, ast.Module]]:
    """Every module of the package: dotted name -> (path, parsed tree)."""
    modules = {}
    for package, folder in package_dirs.items():
        for path in sorted((root / folder).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = (path, ast.parse(path.read_text("utf-8"), filename=str(path)))
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_runtime(tree: ast.AST):
    """ast.walk, leaving out the bodies of ``if TYPE_CHECKING:`` (their else branch runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_names(module: str, tree: ast.AST, is_package: bool, known: set[str]) -> list[tuple[str, int]]:
    """The absolute names ``module`` imports at run time, with their line numbers."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                candidate = f"{source}.{alias.name}"
                found.append((candidate if candidate in known else source, node.lineno))
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            found.append((node.args[0].value, node.lineno))
    return found


def import_graph(modules: dict) -> dict[str, dict[str, int]]:
    """lorebook module -> {lorebook module it imports: first line}."""
    known = set(modules)
    graph: dict[str, dict[str, int]] = {}
    for name, (path, tree) in modules.items():
        edges = graph.setdefault(name, {})
        for target, line in imported_names(name, tree, path.stem == "__init__", known):
            while target and target not in known and "." in target:
                target = target.rpartition(".")[0]  # lorebook.store.Store -> lorebook.store
            if target in known and target != name:
                edges.setdefault(target, line)
    return graph


# --- the checks: each returns the violations it found, as readable lines ---------------------


def find_cycles(modules: dict) -> list[str]:
    """(a) Every strongly connected group of modules, with one cycle through it spelled out."""
    graph = import_graph(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_spell_cycle(graph, group) for group in groups]


def _spell_cycle(graph: dict, group: list[str]) -> str:
    """One cycle inside ``group``: a -> b (line) -> … -> a, found by a breadth-first walk back to the start."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node]):
            if target == start:
                path = paths[node] + [start]
                hops = [f"{a} -> {b} (line {graph[a][b]})" for a, b in zip(path, path[1:])]
                return f"cycle of {len(group)} module(s) {group}: " + ", ".join(hops)
            if target in members and target not in paths:
                paths[target] = paths[node] + [target]
                queue.append(target)
    return f"cycle among {group}"  # pragma: no cover - a strongly connected group always has one


def find_llm_imports(modules: dict) -> list[str]:
    """(b) ``import llm`` / ``from llm…`` anywhere but the bridge (under TYPE_CHECKING too)."""
    found = []
    for name, (path, tree) in modules.items():
        if name == LLM_BRIDGE:
            continue
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            found += [f"{path.name}:{node.lineno} imports {n} (only {LLM_BRIDGE} may)"
                      for n in names if n == "llm" or n.startswith("llm.")]
    return found


def _called_name(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def find_sql(modules: dict) -> list[str]:
    """(c) SQL run outside the store: see the module docstring for the exact rule."""
    found = []
    for name, (path, tree) in modules.items():
        if name in SQL_MODULES:
            continue
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call):
                called = _called_name(node.func)
                receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
                if isinstance(node.func, ast.Attribute) and called in EXECUTE_METHODS:
                    found.append(f"{where} calls .{called}()")
                elif (called == "connect" and isinstance(receiver, ast.Name) and receiver.id == "sqlite3"
                      or called == "Database") and name not in SQL_OPENERS:
                    found.append(f"{where} opens a database ({called}())")
                elif called in DB_METHODS and isinstance(receiver, ast.Name) and receiver.id == "db":
                    found.append(f"{where} calls db.{called}()")
            elif isinstance(node, ast.Attribute) and node.attr in HANDLE_ATTRIBUTES:
                found.append(f"{where} uses .{node.attr}")
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "db":
                found.append(f"{where} indexes db[…]")
    return sorted(set(found))


def find_core_importing_hooks(modules: dict) -> list[str]:
    """(d) A core module (lorebook.*, not lorebook.hooks.*) importing lorebook.hooks."""
    graph = import_graph(modules)
    return [f"{name} imports {target} (line {line})"
            for name, edges in sorted(graph.items()) if not name.startswith(("lorebook.hooks", "lorebook.templates"))
            for target, line in sorted(edges.items()) if target == "lorebook.hooks" or target.startswith("lorebook.hooks.")]


# --- the package itself ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def package():
    return read_package(ROOT)


def test_the_package_is_read_whole(package):
    assert {"lorebook", "lorebook.store", "lorebook.cli", "lorebook.llm_bridge", "lorebook.hooks",
            "lorebook.hooks.capture", "lorebook.templates"} <= set(package)
    graph = import_graph(package)
    assert "lorebook.store" in graph["lorebook.cli"]
    # function-level imports are edges too: the store reaches the bridge only inside a method
    assert "lorebook.llm_bridge" in graph["lorebook.store"]


def test_no_import_cycles(package):
    assert find_cycles(package) == []


def test_only_the_bridge_imports_llm(package):
    assert find_llm_imports(package) == []


def test_only_the_store_runs_sql(package):
    assert find_sql(package) == []


def test_the_core_never_imports_hooks(package):
    assert find_core_importing_hooks(package) == []


# --- each check fails on a planted violation ---------------------------------------------------


def plant(tmp_path, files: dict[str, str]) -> dict:
    """A small package in tmp_path laid out like lorebook's (plugin/, hooks/, templates/)."""
    for folder in PACKAGE_DIRS.values():
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").touch()
    for relative, text in files.items():
        (tmp_path / relative).write_text(text)
    return read_package(tmp_path)


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    package = plant(tmp_path, {
        "plugin/a.py": "from .b import thing\n",
        "plugin/b.py": "import os\n\ndef later():\n    from lorebook import c\n",
        "plugin/c.py": "def later():\n    from . import a\n",
        "plugin/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import e\n",
        "plugin/e.py": "from . import d\n",  # d -> e only under TYPE_CHECKING: not a cycle
    })
    cycles = find_cycles(package)
    assert len(cycles) == 1, cycles
    assert "['lorebook.a', 'lorebook.b', 'lorebook.c']" in cycles[0]
    assert "lorebook.a -> lorebook.b (line 1), lorebook.b -> lorebook.c (line 4), lorebook.c -> lorebook.a (line 2)" \
        in cycles[0]


def test_a_cycle_between_core_and_hooks_is_found(tmp_path):
    package = plant(tmp_path, {
        "plugin/store.py": "from .hooks import capture\n",
        "hooks/capture.py": "from .. import store\n",
    })
    assert find_cycles(package) and "lorebook.hooks.capture" in find_cycles(package)[0]


@pytest.mark.parametrize("line", ["import llm", "import llm.cli", "from llm import get_model",
                                  "from llm.plugins import pm", "def f():\n    import llm"])
def test_llm_outside_the_bridge_is_found(tmp_path, line):
    package = plant(tmp_path, {"plugin/llm_bridge.py": "import llm\n", "plugin/refine.py": line + "\n"})
    assert [v.split(" ")[0] for v in find_llm_imports(package)] == [f"refine.py:{line.count(chr(10)) + 1}"]


def test_llm_lookalikes_are_not_llm(tmp_path):
    package = plant(tmp_path, {"plugin/x.py": "import llm_fake\nfrom . import llm_bridge\nfrom .llm_bridge import get_model\n"})
    assert find_llm_imports(package) == []


@pytest.mark.parametrize("code, violation", [
    ("store.execute('SELECT 1')", ".execute()"),
    ("cursor.executemany('INSERT …', rows)", ".executemany()"),
    ("store.conn.executescript('…')", ".executescript()"),
    ("sqlite3.connect(path)", "opens a database (connect())"),
    ("sqlite_utils.Database(path)", "opens a database (Database())"),
    ("Database(path)", "opens a database (Database())"),
    ("store.conn.commit()", "uses .conn"),
    ("store.db['notes'].insert({})", "uses .db"),
    ("db['notes'].count", "indexes db[…]"),
    ("db.query('select 1')", "calls db.query()"),
    ("db.table('notes')", "calls db.table()"),
])
def test_sql_outside_the_store_is_found(tmp_path, code, violation):
    package = plant(tmp_path, {"plugin/store.py": f"def ok(self, db):\n    {code}\n",
                               "plugin/search.py": f"def bad(store, db, path, rows, cursor):\n    {code}\n"})
    found = find_sql(package)
    assert found and all(v.startswith("search.py:2 ") for v in found), found
    assert any(violation in v for v in found), found


def test_what_is_not_sql_is_not_flagged(tmp_path):
    package = plant(tmp_path, {"plugin/search.py": (
        "import sqlite3\n"
        "QUERY = 'SELECT * FROM notes'\n"
        "def f(store, executor, conn, db_path):\n"
        "    executor.submit(print)\n"
        "    conn.sendall(b'')\n"  # a socket named conn is not a Store's handle
        "    store.search_notes_fts('x', [], {}, 5)\n"
        "    try:\n        pass\n    except sqlite3.OperationalError:\n        pass\n"
        "    return db_path\n"),
        "plugin/llm_bridge.py": "import sqlite_utils\ndef logs():\n    return sqlite_utils.Database('logs.db')\n"})
    assert find_sql(package) == []


def test_the_core_importing_hooks_is_found(tmp_path):
    package = plant(tmp_path, {
        "plugin/dispatch.py": "def f():\n    from lorebook.hooks.claude_code import parse_payload\n",
        "plugin/cli.py": "from .hooks import transcripts\n",
        "hooks/claude_code.py": "from .. import store\n",
        "hooks/transcripts.py": "from . import claude_code\n",  # hooks importing hooks or the core is fine
        "plugin/store.py": "",
        "plugin/plugins.py": "DEFAULT_PLUGINS = ('lorebook.hooks.capture',)\n",  # registered by name
    })
    assert find_core_importing_hooks(package) == [
        "lorebook.cli imports lorebook.hooks.transcripts (line 1)",
        "lorebook.dispatch imports lorebook.hooks.claude_code (line 2)",
    ]
