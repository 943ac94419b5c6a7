"""What `ledger verify` found: a failure names its check, its subject and why."""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.audit.replay.chain import VerifyReport
from ledger.audit.verification.record import Reached
from ledger.audit.verification.seal_check import SealReport


@dataclass(frozen=True)
class Failure:
    """One thing the events say that does not hold, named: which check, which stream, why."""

    check: str  # shoe, money, pool, projection
    subject: str
    reason: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.reason}"


@dataclass(frozen=True)
class Boundary:
    """Where a verification that held can be resumed: the checkpoint it reached, the
    position after which the next one reads, and the state carried there (packed)."""

    reached: Reached
    after: int
    state: str


@dataclass
class LedgerReport:
    chains: VerifyReport
    seal: SealReport | None = None
    failures: list[Failure] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    boundary: Boundary | None = None
    practice: bool = False  # a practice ledger (`ledger db init --practice`)

    @property
    def ok(self) -> bool:
        return self.chains.ok and not self.failures and not (self.seal and self.seal.problems)
