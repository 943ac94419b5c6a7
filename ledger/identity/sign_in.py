"""Signing in to read: who a reader is, proved as a command's sender is, and what they may see.

A reader (the floor page, a surveillance workstation, an accounting client) signs in with the
envelope of `ledger.identity.envelope` around a `sign_in` body:

    {"command": "sign_in", "command_id": "<a fresh UUID>", "at": "<now, with its offset>",
     "challenge": "<the nonce the server issued>"}

signed for this ledger by a registered, unrevoked terminal and an enrolled, unsuspended member
of staff, answering a challenge the server issued (`ledger.identity.challenge`: accepted once,
before it expires), its time within `LEDGER_SIGN_IN_WINDOW_SECONDS` of the server's clock: a
sign-in seen on its way cannot be posted again, now or later. It records nothing. The
registry gives the person's roles, and `READS` what those roles may see: a dealer
sees nothing of the floor, surveillance sees the floor and the replays, accounting (the count
team, the auditor) the reports, a pit boss or supervisor all of it.
"""

from __future__ import annotations

from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, ValidationError

from ledger.core.errors import InvalidInput, NotAllowed, describe_validation_error
from ledger.domain.base import Role
from ledger.domain.registry import StaffMember, role_list
from ledger.identity.challenge import Challenges
from ledger.identity.door import (
    StaffLookup,
    TerminalLookup,
    _check_signature,
    _staff,
    _terminal,
    check_ledger,
)
from ledger.identity.envelope import SignedCommand

FLOOR, REPLAY, REPORTS = "the floor", "replays", "reports"
SUPERVISING = frozenset({Role.PIT_BOSS, Role.SUPERVISOR})
READS: dict[str, frozenset[Role]] = {
    FLOOR: SUPERVISING | {Role.SURVEILLANCE, Role.AUDITOR},
    REPLAY: SUPERVISING | {Role.SURVEILLANCE, Role.AUDITOR},
    REPORTS: SUPERVISING | {Role.COUNT_TEAM, Role.AUDITOR},
}
"""What may be read → the roles that may read it."""


class SignIn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str
    command_id: UUID
    at: AwareDatetime  # with its offset: compared with the server's clock
    challenge: str | None = None  # required: refused without one, in a sentence, by `redeem`


def admit_reader(signed: SignedCommand, staff_of: StaffLookup, terminal_of: TerminalLookup,
                 ledger_id: str, challenges: Challenges) -> StaffMember:
    """The member of staff a `sign_in` envelope proves, or a refusal naming why; its challenge
    is spent only once its signatures verify."""
    if signed.name != "sign_in":
        raise InvalidInput(f"'{signed.name[:40]}' is not a sign-in: sign in with the body "
                           '{"command": "sign_in", "command_id": ..., "at": ..., '
                           '"challenge": ...}.')
    try:
        body = SignIn.model_validate(signed.command)
    except ValidationError as error:
        raise InvalidInput(f"sign_in: {describe_validation_error(error)}.") from None
    check_ledger(signed, ledger_id)
    device = _terminal(signed, terminal_of)
    message = signed.message()
    _check_signature(signed, "terminal", signed.terminal, device.public_key, message)
    member = _staff(signed.staff, staff_of, "signed in by")
    _check_signature(signed, "staff", member.staff_id, member.public_key, message)
    challenges.check_time(body.at)
    challenges.redeem(body.challenge)
    if not any(may_read(member.roles, what) for what in READS):
        raise NotAllowed(f"{role_list(member.roles)} {member.staff_id} reads nothing of the "
                         "ledger here: the floor, replays and reports are for the pit, "
                         "surveillance and accounting.")
    return member


def may_read(roles: list[Role], what: str) -> bool:
    return any(role in READS[what] for role in roles)


def check_may_read(member: StaffMember, what: str) -> None:
    if not may_read(member.roles, what):
        names = sorted(role.value.replace("_", " ") for role in READS[what])
        raise NotAllowed(f"{what} are for {', '.join(names[:-1])} or {names[-1]}: "
                         f"{role_list(member.roles)} {member.staff_id} may not read them."
                         if what != FLOOR else
                         f"the floor is for {', '.join(names[:-1])} or {names[-1]}: "
                         f"{role_list(member.roles)} {member.staff_id} may not read it.")
