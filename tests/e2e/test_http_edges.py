"""The HTTP API's own refusals, as users filed them: a body that is not sent as JSON is
refused unread, every error is the documented `{"error": {"code", "message"}}` (a page of the
floor's stays a page), and a second `ledger serve` on a busy port says so in one line."""

from __future__ import annotations

import os
import subprocess

from tests.e2e.served import LEDGER, Served
from tests.e2e.test_http_api import body, signer  # noqa: F401 - the fixture
from tests.integration.helpers import open_table
from tests.signing import event_count

POST_ROUTES = ("/v1/commands", "/v1/sessions", "/floor/sign-in")


def test_a_body_not_sent_as_json_is_refused_unread_on_every_post_route(
        served: Served, signer, superuser):
    sent = body(signer.sign(open_table("BAC-41")))
    before = event_count(superuser)
    for path in POST_ROUTES:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "text/json", None):
            headers = {"Content-Type": kind} if kind else {}
            answer = served.client.post(path, content=sent, headers=headers)
            assert answer.status_code == 415, (path, kind, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "unsupported_media_type", (path, kind, error)
            assert "application/json" in error["message"] and "nothing recorded" in \
                error["message"]
    assert event_count(superuser) == before
    challenge = served.client.post("/v1/sessions/challenge")  # no body: no type needed
    assert challenge.status_code == 201, challenge.text
    recorded = served.client.post("/v1/commands", content=sent,
                                  headers={"Content-Type": "application/json; charset=utf-8"})
    assert recorded.status_code == 201, recorded.text


def test_every_refusal_of_the_api_has_the_documented_shape(served: Served):
    answers = {
        "an unknown route": (served.get("/v1/no-such-thing"), 404, "not_found"),
        "a route outside the API": (served.get("/nowhere"), 404, "not_found"),
        "a wrong method": (served.get("/v1/commands"), 405, "method_not_allowed"),
        "a wrong method on a read": (served.delete("/v1/ledger"), 405, "method_not_allowed"),
        "a sign-in of the wrong shape": (served.post("/floor/sign-in", '{"staff": 1}'), 422,
                                         "invalid_input"),
        "not JSON": (served.post("/v1/commands", "{"), 400, "invalid_json"),
        "plain text": (served.client.post("/v1/commands", content="x",
                                          headers={"Content-Type": "text/plain"}), 415,
                       "unsupported_media_type"),
    }
    for what, (answer, status, code) in answers.items():
        assert answer.status_code == status, (what, answer.text)
        assert answer.headers["content-type"].startswith("application/json"), what
        data = answer.json()
        assert list(data) == ["error"] and "detail" not in answer.text, (what, data)
        assert data["error"]["code"] == code and data["error"]["message"], (what, data)
    assert answers["a wrong method"][0].headers["allow"] == "POST"
    assert "GET" in answers["a wrong method"][0].json()["error"]["message"]


def test_a_page_of_the_floor_that_does_not_exist_is_a_page(served: Served):
    answer = served.client.get("/floor/no-such-page")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "no such route: /floor/no-such-page" in answer.text
    assert '"detail"' not in answer.text


def test_a_second_serve_on_a_busy_port_says_so_in_one_line_before_serving(
        served: Served, database):
    port = served.url.rsplit(":", 1)[1]
    second = subprocess.run([LEDGER, "serve", "--port", port], capture_output=True, text=True,
                            timeout=120, check=False,
                            env={**os.environ, "LEDGER_DATABASE_URL": database.url})
    assert second.returncode == 1, second.stdout + second.stderr
    assert "serving" not in second.stdout
    assert second.stderr.strip() == (f"error: port {port} on 127.0.0.1 is in use: another "
                                     "process (another `ledger serve`?) listens there; choose "
                                     "another with --port.")
    assert served.get("/v1/ledger").status_code == 200  # the first still serves


def test_a_number_json_cannot_sign_is_refused_as_input_never_as_a_server_fault(
        served_floor: Served, signer):
    """1e999 reads as infinity: refused where it is read, never a 500 when it is signed."""
    command = '{"command": "sign_in", "command_id": "x", "amount": 1e999}'
    page = served_floor.post("/floor/sign-in", '{"staff": "PB-7", "command": ' + command
                             + ', "signature": "x"}')
    assert page.status_code == 422, page.text
    assert page.json()["error"]["code"] == "invalid_input"
    assert "not a finite amount of money" in page.json()["error"]["message"]
    api = served_floor.post("/v1/commands", '{"protocol": "round-ledger/command/1", "command": '
                            + command + ', "terminal": "FLOOR-1", "staff": "PB-7", '
                            '"signatures": [{"signer": "staff", "id": "PB-7", "key": "k", '
                            '"value": "v"}]}')
    assert (api.status_code, api.json()["error"]["code"]) == (400, "invalid_json"), api.text
    assert "'amount' is the number 1e999: not a finite amount of money" in \
        api.json()["error"]["message"]
