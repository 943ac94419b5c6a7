"""Check a dispute evidence bundle with no database: MATCH, DISCREPANCY or TAMPERED.

Depends on nothing but the standard library and `cryptography`, so a regulator can copy this
one file and run `python bundle_verify.py round.evidence.json --seal-public-key KEY`.

A bundle (`round-ledger/evidence/1`, written by `ledger export round`) is
`{"format", "content": {...}, "signature": {"key", "value"}}`. It is authentic when:

1. the checkpoint's Ed25519 signature verifies under the sealing public key (the one given,
   which should come from the regulator's own records, else the one the bundle carries);
2. every event's RFC 6962 leaf, with its audit path, gives the checkpoint's root;
3. the person who exported it signed the content (canonical JSON), under the key their own
   sealed registry events (enrolment, key replacement) in the bundle give them;
4. the replay describes those events: every step is a bundled event, with its body.

Any failure is TAMPERED (exit 2). Authentic, the replay's own verdict stands: MATCH (exit 0)
or DISCREPANCY (exit 1).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
import uuid
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

FORMAT = "round-ledger/evidence/1"
CHECKPOINT = "round-ledger/checkpoint/1"
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic", "by")


class Tampered(Exception):
    pass


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def fingerprint(public_key: str) -> str:
    return "ed25519:" + hashlib.sha256(base64.b64decode(public_key)).hexdigest()[:16]


def _verify(public_key: str, signature: str, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True)).verify(
            base64.b64decode(signature, validate=True), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def leaf_hash(position: int, stream_id: str, version: int, topic: str, state: bytes) -> bytes:
    topic_bytes = topic.encode("utf-8")
    data = (position.to_bytes(8, "big", signed=True) + uuid.UUID(stream_id).bytes
            + version.to_bytes(8, "big", signed=True) + len(topic_bytes).to_bytes(4, "big")
            + topic_bytes + state)
    return hashlib.sha256(b"\x00" + data).digest()


def included(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, digest = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            digest = hashlib.sha256(b"\x01" + sibling + digest).digest()
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            digest = hashlib.sha256(b"\x01" + digest + sibling).digest()
        fn >>= 1
        sn >>= 1
    return sn == 0 and digest == root


def check(bundle: dict[str, Any], seal_public_key: str | None) -> tuple[str, list[str]]:
    """(verdict, what was checked or found)."""
    said: list[str] = []
    try:
        if bundle.get("format") != FORMAT:
            raise Tampered(f"not a {FORMAT} bundle")
        content = bundle["content"]
        checkpoint = content["checkpoint"]
        statement = checkpoint["statement"]
        key = seal_public_key or content["seal_public_key"]
        if statement.get("protocol") != CHECKPOINT or statement.get("key") != fingerprint(key):
            raise Tampered(f"the checkpoint is not signed by the sealing key {fingerprint(key)}")
        if not _verify(key, checkpoint["signature"], canonical(statement)):
            raise Tampered("the checkpoint's signature does not verify")
        said.append(f"checkpoint over {statement['size']:,} events signed by {statement['key']}"
                    + ("" if seal_public_key else " (the key the bundle carries: give yours "
                       "with --seal-public-key)"))
        root, size = bytes.fromhex(statement["root"]), int(statement["size"])
        events = {}
        for event in content["events"]:
            state = base64.b64decode(event["state"], validate=True)
            leaf = leaf_hash(event["position"], event["stream_id"], event["version"],
                             event["topic"], state)
            proof = [bytes.fromhex(h) for h in event["proof"]]
            if not included(leaf, event["leaf_index"], size, proof, root):
                raise Tampered(f"event at position {event['position']} (stream "
                               f"{event['stream_id']} version {event['version']}) is not in "
                               "the sealed log")
            events[event["position"]] = (event, json.loads(state))
        said.append(f"{len(events)} events each proven in the sealed log")
        _check_exporter(bundle, content, events, said)
        _check_replay(content["replay"], events)
        said.append("the replay's steps are the sealed events")
    except Tampered as error:
        return "TAMPERED", [*said, str(error)]
    except (KeyError, TypeError, ValueError) as error:
        return "TAMPERED", [*said, f"the bundle is malformed: {error!r}"]
    verdict = content["replay"]["check"]["verdict"]
    return ("MATCH" if verdict == "MATCH" else "DISCREPANCY"), said


def _check_exporter(bundle: dict[str, Any], content: dict[str, Any],
                    events: dict[int, tuple[dict[str, Any], Any]], said: list[str]) -> None:
    """The content's signature, under the key the exporter's own sealed registry events give."""
    exporter = content["exporter"]
    keys = sorted(
        (event["version"], body) for event, body in events.values()
        if event["stream_id"] == exporter["stream_id"]
        and event["topic"].endswith(("StaffMember.Enrolled", "StaffMember.KeyReplaced")))
    if not keys or keys[0][1].get("staff_id") != exporter["staff_id"]:
        raise Tampered(f"no sealed registry event gives {exporter['staff_id']} a key")
    public_key = keys[-1][1]["public_key"]
    signature = bundle["signature"]
    if signature["key"] != fingerprint(public_key) or not _verify(
            public_key, signature["value"], canonical(content)):
        raise Tampered(f"the content is not as {exporter['staff_id']} signed it")
    said.append(f"exported and signed by {exporter['staff_id']} ({fingerprint(public_key)})")


def _check_replay(replay: dict[str, Any], events: dict[int, tuple[dict[str, Any], Any]]) -> None:
    for step in replay["steps"]:
        event = events.get(step["position"])
        if event is None:
            raise Tampered(f"the replay's step at position {step['position']} is no sealed "
                           "event of the bundle")
        body = {k: v for k, v in event[1].items() if k not in ENVELOPE}
        if step["detail"] != body or step["version"] != event[0]["version"]:
            raise Tampered(f"the replay's step at position {step['position']} says other than "
                           "the sealed event")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--seal-public-key", help="the sealing public key you trust (base64)")
    args = parser.parse_args(argv)
    try:
        with open(args.bundle, "rb") as file:
            bundle = json.loads(file.read())
    except (OSError, ValueError) as error:
        print(f"TAMPERED: cannot read {args.bundle}: {error}")
        return 2
    verdict, said = check(bundle, args.seal_public_key)
    for line in said:
        print(f"  {line}")
    print(verdict)
    return {"MATCH": 0, "DISCREPANCY": 1}.get(verdict, 2)


if __name__ == "__main__":
    sys.exit(main())
