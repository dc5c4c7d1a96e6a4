"""The shared fixtures themselves: isolated databases, a crashable server, strict pages."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright")

import httpx
import psycopg
import sqlalchemy
from playwright.sync_api import Browser, Page
from sqlalchemy.engine import make_url

from conftest import LiveServerFactory, fresh_postgres_database, watched_page


@pytest.mark.parametrize("attempt", [1, 2])
def test_database_url_is_a_fresh_working_database(database_url: str, attempt: int) -> None:
    # Both attempts create the same table: the second would fail on a shared database.
    engine = sqlalchemy.create_engine(database_url)
    try:
        assert sqlalchemy.inspect(engine).get_table_names() == []
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text("CREATE TABLE probe (attempt INTEGER)"))
            connection.execute(sqlalchemy.text("INSERT INTO probe VALUES (:a)"), {"a": attempt})
        with engine.connect() as connection:
            stored = connection.execute(sqlalchemy.text("SELECT attempt FROM probe")).scalar()
        assert stored == attempt
    finally:
        engine.dispose()


def test_database_url_covers_both_backends(
    database_url: str, request: pytest.FixtureRequest
) -> None:
    backend = make_url(database_url).get_backend_name()
    assert backend == request.node.callspec.params["database_url"]


def test_sqlite_url_lives_in_the_test_directory(sqlite_url: str, tmp_path: object) -> None:
    assert make_url(sqlite_url).database == f"{tmp_path}/triominos.db"


def _database_exists(server_url: str, name: str) -> bool:
    admin = make_url(server_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(admin) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


def test_fresh_postgres_database_is_dropped_even_while_connected(postgres_server_url: str) -> None:
    with fresh_postgres_database(postgres_server_url) as url:
        name = make_url(url).database
        assert name is not None
        assert _database_exists(postgres_server_url, name)
        # A connection left open (a server a test crashed) must not block the drop.
        lingering = psycopg.connect(
            make_url(url).set(drivername="postgresql").render_as_string(False)
        )
    try:
        assert not _database_exists(postgres_server_url, name)
    finally:
        lingering.close()


def test_postgres_databases_have_distinct_names(postgres_server_url: str) -> None:
    with (
        fresh_postgres_database(postgres_server_url) as first,
        fresh_postgres_database(postgres_server_url) as second,
    ):
        assert make_url(first).database != make_url(second).database


def test_a_console_error_on_a_watched_page_fails_the_test(browser: Browser) -> None:
    with (
        pytest.raises(pytest.fail.Exception, match="console error: something broke") as failed,
        watched_page(browser) as page,
    ):
        page.evaluate("console.error('something broke')")
        page.evaluate("console.log('just chatting')")
    assert "just chatting" not in str(failed.value)


def test_an_uncaught_exception_on_a_watched_page_fails_the_test(browser: Browser) -> None:
    with (
        pytest.raises(pytest.fail.Exception, match="uncaught exception: kaput"),
        watched_page(browser) as page,
    ):
        page.set_content("<script>throw new Error('kaput')</script>")


def test_a_watched_page_lets_only_the_expected_errors_pass(browser: Browser) -> None:
    refused = "Failed to load resource: the server responded with a status of {}"
    with watched_page(browser, "status of 400") as page:
        page.evaluate(f"console.error('{refused.format(400)}')")
    with (
        pytest.raises(pytest.fail.Exception, match="status of 500"),
        watched_page(browser, "status of 400") as page,
    ):
        page.evaluate(f"console.error('{refused.format(400)}')")
        page.evaluate(f"console.error('{refused.format(500)}')")


def test_a_clean_page_passes(page: Page) -> None:
    page.set_content("<p>hello</p>")
    assert page.viewport_size == {"width": 1280, "height": 800}
    assert page.text_content("p") == "hello"


def test_phone_page_is_a_touch_phone(phone_page: Page) -> None:
    phone_page.set_content("<p>hello</p>")
    assert phone_page.viewport_size == {"width": 390, "height": 844}
    assert phone_page.evaluate("window.devicePixelRatio") == 3
    assert phone_page.evaluate("navigator.maxTouchPoints") > 0


def test_live_server_survives_a_crash_on_the_same_port_and_database(
    live_server: LiveServerFactory,
) -> None:
    server = live_server()
    assert server.base_url == f"http://127.0.0.1:{server.port}"
    assert server.ws_url == f"ws://127.0.0.1:{server.port}"
    created = httpx.post(
        f"{server.base_url}/api/tables",
        json={"preset": "classic", "players": 2, "seats": [{"kind": "person"}] * 2},
    )
    assert created.status_code == 201, created.text
    code = created.json()["code"]

    server.kill()
    assert not server.running
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.base_url}/api/presets")

    server.start()
    assert httpx.get(f"{server.base_url}/api/tables/{code}").status_code == 200
    server.stop()
    assert not server.running
    assert server.log().count("serving on") == 2


def test_live_server_passes_its_environment(live_server: LiveServerFactory) -> None:
    server = live_server(TRIOMINOS_PROBE="42")
    environment = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
    assert b"TRIOMINOS_PROBE=42" in environment


def test_live_server_that_exits_fails_with_its_output(live_server: LiveServerFactory) -> None:
    # The server names the database it cannot use; the fixture must pass that on.
    with pytest.raises(pytest.fail.Exception, match=r"exited with status [1-9]\d*:\n.*nonsense"):
        live_server("nonsense://nowhere")
