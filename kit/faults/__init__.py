"""Faults (the nemesis): one module per family, one fault per run, always healed.

kinds.py names every kind; nemesis.py is the thread that injects a run's fault and heals
it; base.py is what a fault is given (FaultContext) and must do (FaultKind)."""

from __future__ import annotations

from kit.faults.base import FaultContext, FaultKind, FaultNotInjected, References
from kit.faults.kinds import FAULTS, KINDS

__all__ = ["FAULTS", "KINDS", "FaultContext", "FaultKind", "FaultNotInjected", "References"]
