"""Imports point one way, from the engine up: rules ← tournament ← scoring ← (table_entry,
prizes, series side by side) ← printing ← archive ← operations ← config (README, "How the
code is laid out").  import-linter checks the contracts in pyproject.toml
(``[tool.importlinter]``); this test runs it, so an upward import fails the suite with the
linter's report naming the import chain.  And no app grows back into the one that holds
everything: none has more than about a third of the product's lines."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: top-level folders with Python that are no part of the product (not checked)
NOT_PRODUCT = {"tests", "bench", "scripts"}


def linter_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_every_package_of_the_product_is_in_a_layer():
    """A new app must be placed in the layers, or the linter would not look at it."""
    config = linter_config()
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_PRODUCT
    assert set(config["root_packages"]) == packages
    (layers,) = [c for c in config["contracts"] if c["type"] == "layers"]
    in_layers = {name.strip() for layer in layers["layers"] for name in re.split("[|:]", layer)}
    assert in_layers == packages


def test_imports_point_one_way():
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    contracts = linter_config()["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in report, report


def product_lines() -> dict[str, int]:
    """Lines of Python per product package, migrations not counted."""
    return {
        path.parent.name: sum(
            len(f.read_text("utf-8").splitlines())
            for f in path.parent.rglob("*.py")
            if "migrations" not in f.parts
        )
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_PRODUCT
    }


def test_no_app_holds_more_than_about_a_third_of_the_product():
    lines = product_lines()
    total = sum(lines.values())
    assert total > 10_000  # the count found the product
    too_big = {name: n for name, n in lines.items() if n > 0.36 * total}
    assert not too_big, f"{too_big} of {total} lines"


def first_party_imports(path: Path) -> list[tuple[int, str, str | None]]:
    """Every ``import x.y`` / ``from x.y import name`` of the product in ``path``, nested
    imports inside functions included: (line, module, name or None)."""
    import ast

    roots = set(linter_config()["root_packages"]) | {"bench"}
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.lineno, node.module, a.name) for a in node.names]
    return [(line, module, name) for line, module, name in found if module.split(".")[0] in roots]


def test_benchmarks_and_scripts_import_what_exists():
    """The benchmarks and scripts import the product inside functions, which the suite
    never calls; after the split two benchmarks still imported
    ``scoring.management.commands.generate_tournament`` (now in operations)."""
    import importlib

    missing = []
    for path in sorted([*ROOT.glob("bench/*.py"), *ROOT.glob("scripts/*.py")]):
        for line, module, name in first_party_imports(path):
            try:
                imported = importlib.import_module(module)
            except ImportError as error:
                missing.append(f"{path.relative_to(ROOT)}:{line}: {module} ({error})")
                continue
            if name is not None and name != "*" and not hasattr(imported, name):
                try:
                    importlib.import_module(f"{module}.{name}")
                except ImportError:
                    missing.append(f"{path.relative_to(ROOT)}:{line}: {module}.{name}")
    assert missing == []


def test_no_test_module_imports_another():
    """Builders and helpers that several test modules use live in ``tests/factories``; a
    test module (or ``conftest.py``) imports none of another test module's names, so a
    helper is found in one place and no test module is loaded for another's sake."""
    import ast

    tests = ROOT / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        package = path.relative_to(ROOT).parent.parts
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                module = ".".join([*base, *([node.module] if node.module else [])])
                targets = [f"{module}.{a.name}" for a in node.names] + [module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                parts = target.split(".")
                if parts[0] == "tests" and any(
                    p == "conftest" or p.startswith("test_") for p in parts[1:]
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {target}")
                    break
    assert found == []
