"""Check a dispute evidence bundle with no database: MATCH, DISCREPANCY or TAMPERED.

Depends on nothing but the standard library and `cryptography`, so a regulator can copy this
one file and run `python bundle_verify.py round.evidence.json --seal-public-key KEY`, or
`--trust trust.json` to take the sealing key, the witnesses and their quorum from the ledger's
trust file.

A bundle (`round-ledger/evidence/1`, written by `ledger export round`) is
`{"format", "content": {...}, "signature": {"key", "value"}}`. It is authentic when:

1. the checkpoint's Ed25519 signature verifies under the sealing public key (the one given,
   which should come from the regulator's own records, else the one the bundle carries);
2. every event's RFC 6962 leaf, with its audit path, gives the checkpoint's root;
3. the person who exported it signed the content (canonical JSON), under the key their own
   sealed registry events (enrolment, key replacement) in the bundle give them;
4. the replay describes those events: every step is a bundled event, with its body;
5. given witness keys (`--trust FILE`, or `--witness NAME=VKEY` and `--quorum N`), at least
   the quorum of those witnesses cosigned the checkpoint (C2SP cosignature/v1 lines the bundle
   carries from `ledger_seal_cosignatures`). A checkpoint short of its quorum is UNWITNESSED:
   signed by the sealing key but not shown to enough witnesses to rule out a history shown to
   you alone.

Any failure, unwitnessed included, is TAMPERED (exit 2). Authentic, the replay's own verdict
stands: MATCH (exit 0) or DISCREPANCY (exit 1).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import json
import struct
import sys
import uuid
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

FORMAT = "round-ledger/evidence/1"
CHECKPOINT = "round-ledger/checkpoint/1"
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic", "by")
KEY_EVENTS = ("StaffMember.Enrolled", "StaffMember.KeyReplaced")
"""The events that give a member of staff a key, spelled out: this verifier runs without the
ledger installed (a test holds them to the classes' `event_type`)."""


class Tampered(Exception):
    pass


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def fingerprint(public_key: str) -> str:
    return "ed25519:" + hashlib.sha256(base64.b64decode(public_key)).hexdigest()[:16]


def _verify(public_key: str, signature: str, message: bytes) -> bool:
    try:
        raw = base64.b64decode(public_key, validate=True)
        if _small_order(raw):
            return False
        Ed25519PublicKey.from_public_bytes(raw).verify(
            base64.b64decode(signature, validate=True), message)
    except (InvalidSignature, ValueError):
        return False
    return True


P = 2**255 - 19
D = -121665 * pow(121666, P - 2, P) % P


def _small_order(raw: bytes) -> bool:
    """True for an Ed25519 public key that is a point of order 1, 2, 4 or 8 (or not in its
    canonical encoding): OpenSSL accepts such a key, and under the neutral point a "signature"
    of zeros verifies any message; the ledger's door (libsodium) refuses them, and so does
    this check."""
    if len(raw) != 32:
        return False  # refused as a key further on
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if y >= P:
        return True
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P:
        x = x * pow(2, (P - 1) // 4, P) % P
    if (v * x * x - u) % P:
        return False  # not a point: refused as a key further on
    if x & 1 != raw[31] >> 7:
        x = P - x
    for _ in range(3):  # eight times the point: the neutral point for a small order
        xy = x * y % P
        x, y = (2 * xy * pow(1 + D * xy * xy, P - 2, P) % P,
                (y * y + x * x) * pow(1 - D * xy * xy, P - 2, P) % P)
    return x == 0 and y == 1


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


# -- witnesses: C2SP signed-note vkeys and cosignature/v1, self-contained ----------------------

COSIGNATURE_V1 = 0x04
KEY_TYPES = (0x01, COSIGNATURE_V1)
DASH = "\N{EM DASH}"


@dataclass(frozen=True)
class Witnesses:
    """The witness keys the verifier trusts, and how many must have cosigned."""

    keys: dict[str, bytes]  # name -> 32-byte Ed25519 public key
    quorum: int
    origin: str | None = None  # the trust file's; else the checkpoint's own ledger gives it
    ledger: str | None = None


def witness_key(vkey: str) -> tuple[str, bytes]:
    """`<name>+<hex key ID>+<base64(type || key)>` -> (name, public key), its ID checked."""
    parts = vkey.strip().split("+", 2)
    if len(parts) != 3 or not parts[0]:
        raise ValueError(f"'{vkey[:80]}' is not a vkey: name+keyid+key")
    name, hex_id, material_text = parts
    try:
        material = base64.b64decode(material_text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"the vkey of {name} is not base64") from None
    if len(material) != 33 or material[0] not in KEY_TYPES:
        raise ValueError(f"the vkey of {name} is not an Ed25519 key")
    if hex_id.lower() != _key_id(name, material[1:], material[0]).hex():
        raise ValueError(f"the vkey of {name} has a key ID that is not its key's")
    return name, material[1:]


def _key_id(name: str, public_key: bytes, kind: int) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public_key).digest()[:4]


def witnesses_of_trust(trust: dict[str, Any], quorum: int | None = None) -> Witnesses:
    """A trust file's witnesses (`round-ledger/trust/1`), read with the standard library."""
    keys = dict(witness_key(str(w["vkey"])) for w in trust.get("witnesses", []))
    return Witnesses(keys, int(trust["quorum"]) if quorum is None else quorum,
                     str(trust["origin"]), str(trust["ledger"]))


def cosigners(witnesses: Witnesses, origin: str, size: int, root: bytes,
              lines: list[str]) -> list[str]:
    """The trusted witnesses with a cosignature/v1 line on this checkpoint that verifies (and
    none of theirs that does not)."""
    body = f"{origin}\n{size}\n{base64.b64encode(root).decode('ascii')}\n"
    found = []
    for name, public_key in sorted(witnesses.keys.items()):
        wanted = _key_id(name, public_key, COSIGNATURE_V1)
        mine = [raw for line_name, raw in map(_signature_line, lines)
                if line_name == name and raw[:4] == wanted]
        if mine and all(_cosigned(public_key, raw[4:], body) for raw in mine):
            found.append(name)
    return found


def _signature_line(line: str) -> tuple[str, bytes]:
    dash, _, rest = line.strip().partition(" ")
    name, _, value = rest.partition(" ")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return "", b""
    return (name, raw) if dash == DASH and len(raw) > 4 else ("", b"")


def _cosigned(public_key: bytes, value: bytes, body: str) -> bool:
    if len(value) != 72:
        return False
    (timestamp,) = struct.unpack(">Q", value[:8])
    message = f"cosignature/v1\ntime {timestamp}\n{body}".encode()
    if _small_order(public_key):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(value[8:], message)
    except (InvalidSignature, ValueError):
        return False
    return True


def _check_witnesses(content: dict[str, Any], witnesses: Witnesses | None,
                     said: list[str]) -> None:
    statement = content["checkpoint"]["statement"]
    lines = [str(line) for line in content.get("cosignatures", [])]
    if witnesses is None:
        said.append(f"witnesses not checked: the bundle carries {len(lines)} cosignature{'s' * (len(lines) != 1)}; "
                    "give --trust, or --witness and --quorum, to check them")
        return
    if witnesses.ledger is not None and statement["ledger"] != witnesses.ledger:
        raise Tampered(f"the checkpoint is of ledger {statement['ledger']}, not the trust "
                       f"file's {witnesses.ledger}")
    origin = witnesses.origin or f"round-ledger/{statement['ledger']}"
    found = cosigners(witnesses, origin, int(statement["size"]),
                      bytes.fromhex(statement["root"]), lines)
    count = (f"cosigned by {len(found)} of {len(witnesses.keys)} trusted witnesses"
             + (f" ({', '.join(found)})" if found else "") + f", quorum {witnesses.quorum}")
    if len(found) < witnesses.quorum:
        raise Tampered(f"UNWITNESSED: {count}: the checkpoint may be a history shown to you "
                       "alone")
    said.append(f"the checkpoint is {count}")


def check(bundle: dict[str, Any], seal_public_key: str | None,
          witnesses: Witnesses | None = None) -> tuple[str, list[str]]:
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
        _check_witnesses(content, witnesses, said)
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
        used = len(content["replay"]["evidence"])
        said.append(f"{len(events)} events each proven in the sealed log ({used} its replay "
                    f"used, {len(events) - used} of the exporter's key)")
        _check_exporter(bundle, content, events, said)
        if content.get("practice"):  # signed with the rest: a practice ledger's, marked
            said.insert(0, str(content["practice"]))
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
        and event["topic"].endswith(KEY_EVENTS))
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


UNTRUSTED = ("checked only against the sealing key the bundle carries itself, which proves "
             "nothing against whoever made it: a self-consistent forgery passes this (give the "
             "key you trust with --seal-public-key, or --trust FILE)")
EXIT = {"MATCH": 0, "DISCREPANCY": 1, "UNTRUSTED": 3}
"""The exit code of each verdict; any other (TAMPERED) is 2. UNTRUSTED is 3, as `ledger
verify` without a trust file: a script reading only the code never takes it for a proof."""


def trusted_verdict(verdict: str, seal_public_key: str | None) -> str:
    """MATCH under no key of your own (the bundle's own) is UNTRUSTED; any other as it is."""
    return "UNTRUSTED" if verdict == "MATCH" and not seal_public_key else verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--seal-public-key", help="the sealing public key you trust (base64)")
    parser.add_argument("--trust", help="the ledger's trust file: its sealing key, witnesses "
                        "and quorum")
    parser.add_argument("--witness", action="append", default=[], metavar="NAME=VKEY",
                        help="a witness you trust (repeatable)")
    parser.add_argument("--quorum", type=int, help="how many witnesses must have cosigned "
                        "(default: the trust file's, else every --witness)")
    args = parser.parse_args(argv)
    try:
        with open(args.bundle, "rb") as file:
            bundle = json.loads(file.read())
    except (OSError, ValueError) as error:
        print(f"TAMPERED: cannot read {args.bundle}: {error}")
        return 2
    try:
        trust = _read_trust(args.trust)
        witnesses = given_witnesses(trust, args.witness, args.quorum)
    except (OSError, ValueError, KeyError, TypeError) as error:
        parser.error(str(error))
    key = args.seal_public_key or (str(trust["seal_public_key"]) if trust else None)
    verdict, said = check(bundle, key, witnesses)
    verdict = trusted_verdict(verdict, key)
    for line in said:
        print(f"  {line}")
    print(f"UNTRUSTED {UNTRUSTED}" if verdict == "UNTRUSTED" else verdict)
    return EXIT.get(verdict, 2)


def _read_trust(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    with open(path, encoding="utf-8") as file:
        trust: dict[str, Any] = json.load(file)
    if trust.get("protocol") != "round-ledger/trust/1":
        raise ValueError(f"{path} is not a round-ledger/trust/1 trust file")
    return trust


def given_witnesses(trust: dict[str, Any] | None, pairs: list[str],
                    quorum: int | None) -> Witnesses | None:
    """The trust file's witnesses and the `NAME=VKEY` ones given, or None if neither."""
    if trust is None and not pairs:
        if quorum is not None:
            raise ValueError("--quorum needs witnesses: --trust or --witness")
        return None
    base = witnesses_of_trust(trust) if trust is not None else Witnesses({}, 0)
    keys = dict(base.keys)
    for pair in pairs:
        name, equals, vkey = pair.partition("=")
        given_name, public_key = witness_key(vkey)
        if not equals or given_name != name:
            raise ValueError(f"--witness '{pair[:80]}' is not NAME=VKEY with the vkey's name")
        keys[name] = public_key
    default = base.quorum if trust is not None else len(keys)
    wanted = default if quorum is None else quorum
    if not 0 <= wanted <= len(keys):
        raise ValueError(f"a quorum of {wanted} needs {wanted} witnesses; {len(keys)} given")
    return Witnesses(keys, wanted, base.origin, base.ledger)


if __name__ == "__main__":
    sys.exit(main())
