"""The credentials this process acts under, read from the settings.

A person's key comes from the file `LEDGER_STAFF_CREDENTIAL` names, or from the variable
`LEDGER_STAFF_KEY` holding the file's contents; the terminal's from `LEDGER_TERMINAL_CREDENTIAL`
or `LEDGER_TERMINAL_KEY`. There is no default: without them nothing can be sent.
"""

from __future__ import annotations

from ledger.application.config import LedgerSettings
from ledger.core.errors import InvalidInput
from ledger.identity.keys import Credential, Kind


def configured(settings: LedgerSettings, kind: Kind) -> Credential:
    path = settings.staff_credential if kind == "staff" else settings.terminal_credential
    text = settings.staff_key if kind == "staff" else settings.terminal_key
    upper = kind.upper()
    if path is not None:
        return Credential.load(path, kind)
    if text is not None:
        credential = Credential.from_json(text.get_secret_value(), f"LEDGER_{upper}_KEY")
        if credential.kind != kind:
            raise InvalidInput(f"LEDGER_{upper}_KEY holds a {credential.kind} credential, "
                               f"not a {kind} one.")
        return credential
    raise InvalidInput(
        f"no {kind} credential: set LEDGER_{upper}_CREDENTIAL to your key file or "
        f"LEDGER_{upper}_KEY to its contents (an administrator enrols the key made by "
        f"`ledger key new {kind} ID`).")


def acting(settings: LedgerSettings) -> tuple[Credential, Credential]:
    """(the staff member's credential, the terminal's), both required."""
    return configured(settings, "staff"), configured(settings, "terminal")
