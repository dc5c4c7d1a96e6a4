"""The package as it is installed: its licence, ``python -m triominos``, the wheel with all
that the server serves and the native core, the pure-Python install where no compiler
is, and new migrations from the template."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import TRIOMINOS_COMMAND, LiveServer, free_port
from native_cores import needs_native
from triominos.cli import main

REPO = Path(__file__).resolve().parent.parent
MIGRATIONS = REPO / "src" / "triominos" / "server" / "migrations"


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run a command to its end; its output, or the test fails with it. ``env`` adds to
    the environment."""
    result = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if env is None else {**os.environ, **env},
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_the_licence_is_mit_in_its_file_and_in_the_metadata() -> None:
    metadata = importlib.metadata.metadata("triominos")
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    licence = (REPO / "LICENSE").read_text()
    assert licence.startswith("MIT License\n")
    assert "Copyright (c) the triominos developers" in licence


def test_python_dash_m_triominos_is_the_triominos_command() -> None:
    module = run(sys.executable, "-m", "triominos", "--help")
    script = run(TRIOMINOS_COMMAND, "--help")
    assert module.startswith("Usage: python -m triominos ")
    assert module.replace("python -m triominos", "triominos") == script


def test_serve_without_the_server_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes the import fail, as in a venv without the extra.
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "the server needs its extras: pip install 'triominos[server]'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_alembic_revision_writes_the_next_migration_from_the_template(tmp_path: Path) -> None:
    pytest.importorskip("alembic")
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    # A copy, so that the new revision is not left among the package's migrations.
    copied = tmp_path / "src" / "triominos" / "server" / "migrations"
    shutil.copytree(MIGRATIONS, copied, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "alembic.ini", tmp_path)
    before = ScriptDirectory.from_config(Config(str(tmp_path / "alembic.ini"))).get_current_head()

    alembic = Path(sys.executable).parent / "alembic"
    message = "Seats remember a colour."
    run(alembic, "revision", "-m", message, "--rev-id", "9999_colour", cwd=tmp_path)

    scripts = ScriptDirectory.from_config(Config(str(tmp_path / "alembic.ini")))
    assert scripts.get_current_head() == "9999_colour"
    new = scripts.get_revision("9999_colour")
    assert new is not None and new.down_revision == before
    text = (copied / "versions" / "9999_colour.py").read_text()
    assert text.startswith(f'"""{message}\n')
    assert f'down_revision: str | None = "{before}"\n' in text
    assert "def upgrade() -> None:" in text and "def downgrade() -> None:" in text


@pytest.mark.slow
def test_the_wheel_imports_without_extras_and_serves_everything_with_them(
    tmp_path: Path,
) -> None:
    pytest.importorskip("build")
    httpx = pytest.importorskip("httpx")
    # From the sdist, as pip would build it: the sdist must hold everything too.
    run(sys.executable, "-m", "build", "--outdir", tmp_path / "dist", REPO)
    (wheel,) = (tmp_path / "dist").glob("triominos-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python, pip = venv / "bin" / "python", venv / "bin" / "pip"

    # The machine that builds it has a C compiler (make test installs one): the wheel
    # carries the native core, and the installed package runs on it.
    names = zipfile.ZipFile(wheel).namelist()
    for module in ("_board", "_encoding", "_match", "_search"):
        assert any(name.startswith(f"triominos/{module}.") for name in names), module
    run(pip, "install", "--quiet", wheel)
    # Out of the source tree, so that only the installed package can be imported.
    imported = "import triominos; print(triominos.__file__); print(triominos.__version__)"
    where, version = run(python, "-c", imported, cwd=tmp_path).split()
    assert where.startswith(str(venv))
    assert version == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert run(venv / "bin" / "triominos", "rules", "--help", cwd=tmp_path).startswith("Usage:")
    core = run(venv / "bin" / "triominos", "--version", cwd=tmp_path).splitlines()[-1]
    assert core == "core: native (C, from Cython)"

    run(pip, "install", "--quiet", f"{wheel}[server]")
    database = f"sqlite:///{tmp_path / 'games.db'}"
    server = LiveServer(
        database, free_port(), tmp_path / "serve.log", {}, command=venv / "bin" / "triominos"
    )
    server.start()
    try:
        for path in ("/puzzles", "/api/puzzles/daily"):  # the puzzles shipped in the wheel
            assert httpx.get(f"{server.base_url}{path}").status_code == 200, path
        for path in ("/", "/static/app.js", "/static/locales/fr.json", "/api/presets"):
            response = httpx.get(f"{server.base_url}{path}")
            assert response.status_code == 200, f"{path}: {response.status_code}"
        assert "classic" in {entry["name"] for entry in response.json()["presets"]}
    finally:
        server.stop()
    # The server made its database from the migrations inside the wheel.
    assert "serving on" in server.log()


@pytest.mark.slow
def test_without_a_c_compiler_pip_installs_the_pure_python_core(tmp_path: Path) -> None:
    pytest.importorskip("build")
    run(sys.executable, "-m", "build", "--sdist", "--outdir", tmp_path / "dist", REPO)
    (sdist,) = (tmp_path / "dist").glob("triominos-*.tar.gz")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    # A compiler that always fails, as on a machine without one.
    run(venv / "bin" / "pip", "install", "--quiet", sdist, env={"CC": "false"})
    core = run(venv / "bin" / "triominos", "--version", cwd=tmp_path).splitlines()[-1]
    assert core.startswith("core: python (not built: no C compiler or Python headers")
    greedy_match = (
        "from triominos.bots import GreedyBot; from triominos.game import Match\n"
        "match, bot = Match.from_preset('extended', 4, seed=3), GreedyBot()\n"
        "while not match.is_over: match.apply(bot.act(match.observe(match.to_move)))\n"
        "print(match.winners)"
    )
    assert run(venv / "bin" / "python", "-c", greedy_match, cwd=tmp_path).startswith("[")


@needs_native
def test_the_editable_install_carries_the_native_core_next_to_its_source() -> None:
    spec = importlib.util.find_spec("triominos._board")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).parent == REPO / "src" / "triominos"
