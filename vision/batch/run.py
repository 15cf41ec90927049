"""Run a batch: find the work, skip what is done, read the rest on an executor, store it.

Two executors read the same work units with the same worker function
(``work.process_unit``): a local process pool (one reader, hence one onnxruntime
session, per worker process, built by the pool initializer) and an existing Dask
distributed cluster. Both keep only a few units in flight per worker, so memory stays flat
however large the pile is, and both yield outcomes as they finish; the main process alone
writes the output folder.
"""

from __future__ import annotations

import contextlib
import time
import traceback
import uuid
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ...errors import SudokucamError
from ...files import WriteError as StoreWriteError
from ...solver.outcome import SOLVED_OUTCOMES, Outcome
from .inputs import BatchInputError, Inputs, PayloadReader, Skipped, WorkUnit, discover
from .store import (
    BatchStore,
    FileKey,
    Record,
    StoredUnit,
    UnitOutcome,
    failure_outcome,
    recorded_stems,
    skipped_row,
    source_stems,
)
from .work import WorkOptions, init_worker, process_unit, worker_ready

IN_FLIGHT_PER_WORKER = 2
MAX_CRASHES_PER_UNIT = 2
DASK_SCHEMES = {"dask": "tcp", "dask+tcp": "tcp", "dask+tls": "tls", "tcp": "tcp", "tls": "tls"}


class BatchSetupError(SudokucamError):
    """The batch cannot start: no executor reachable, Dask missing, bad address, ..."""


Outcomes = Generator[UnitOutcome, None, None]


class Executor(Protocol):
    """Reads work units somewhere and yields their outcomes as they finish."""

    description: str

    def map(self, units: Sequence[WorkUnit], options: WorkOptions) -> Outcomes:
        """Outcomes of every unit, in the order they finish."""
        ...


def error_outcome(unit: WorkUnit, message: str, error_traceback: str | None = None) -> UnitOutcome:
    """The outcome of a unit that could not be read (with the traceback if unexpected)."""
    return UnitOutcome(unit, error=message, status=Outcome.ERROR, error_traceback=error_traceback)


class LocalExecutor:
    """A pool of worker processes on this machine, one reader per process."""

    def __init__(self, workers: int) -> None:
        """Use ``workers`` processes (at least 1)."""
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.workers = workers
        self.description = f"{workers} local worker{'s' if workers > 1 else ''}"

    def map(self, units: Sequence[WorkUnit], options: WorkOptions) -> Outcomes:
        """Outcomes of every unit; a crashed pool is replaced and its units tried again.

        The units in flight when a worker died are tried again one at a time, so the page
        that kills a worker fails on its own without taking its neighbours with it.
        """
        pending = list(reversed(units))
        crashes: dict[str, int] = {}
        while pending:
            pool = self._pool(options)
            try:
                _check_ready(pool.submit(worker_ready, options))
                yield from self._drain(pool, pending, crashes, options)
            finally:
                pool.shutdown(wait=True, cancel_futures=True)

    def _pool(self, options: WorkOptions) -> ProcessPoolExecutor:
        """A fresh pool whose processes each build their reader when they start."""
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=init_worker,
            initargs=(options,),
        )

    def _drain(
        self,
        pool: ProcessPoolExecutor,
        pending: list[WorkUnit],
        crashes: dict[str, int],
        options: WorkOptions,
    ) -> Iterator[UnitOutcome]:
        """Feed ``pending`` (last first) through the pool until done or the pool breaks."""
        payloads = PayloadReader()
        running: dict[Future[UnitOutcome], WorkUnit] = {}
        limit = IN_FLIGHT_PER_WORKER * self.workers
        while pending or running:
            while pending and len(running) < limit and not _isolating(running, crashes):
                if crashes.get(pending[-1].uid) and running:
                    break  # a unit that was in flight in a crash runs alone
                unit = pending.pop()
                try:
                    payload = payloads(unit)
                except BatchInputError as error:
                    yield error_outcome(unit, str(error))
                    continue
                running[pool.submit(process_unit, unit, payload, options)] = unit
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                unit = running.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    lost = [unit, *running.values()]
                    yield from _after_crash(lost, pending, crashes)
                    return


def _isolating(running: Mapping[Future[UnitOutcome], WorkUnit], crashes: Mapping[str, int]) -> bool:
    """Whether a unit suspected of crashing its worker is running (alone)."""
    return any(crashes.get(unit.uid) for unit in running.values())


def _check_ready(probe: Future[str]) -> None:
    """Wait until a worker has built its reader; raise BatchSetupError if it cannot."""
    try:
        probe.result()
    except (SudokucamError, BrokenProcessPool) as error:
        raise BatchSetupError(f"the workers cannot start: {error}") from error


def _after_crash(
    lost: list[WorkUnit], pending: list[WorkUnit], crashes: dict[str, int]
) -> Iterator[UnitOutcome]:
    """Put units lost with a crashed worker back in line, or fail those that crashed twice."""
    for unit in lost:
        crashes[unit.uid] = crashes.get(unit.uid, 0) + 1
        if crashes[unit.uid] >= MAX_CRASHES_PER_UNIT:
            yield error_outcome(unit, f"the worker process died reading {unit.label}")
        else:
            pending.append(unit)


class DaskExecutor:
    """An existing Dask distributed cluster, reached through its scheduler address."""

    def __init__(self, address: str) -> None:
        """Use the scheduler at ``address`` (dask://HOST:PORT or tcp://HOST:PORT).

        How long connecting may take is Dask's own setting
        (``distributed.comm.timeouts.connect``, e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT).
        """
        self.address = dask_address(address)
        self.description = f"Dask cluster at {self.address}"

    def map(self, units: Sequence[WorkUnit], options: WorkOptions) -> Outcomes:
        """Outcomes of every unit, a few in flight per worker thread of the cluster."""
        distributed = import_distributed()
        try:
            client = distributed.Client(self.address)
        except (OSError, TimeoutError) as error:
            message = f"cannot reach the Dask scheduler at {self.address}: {error}"
            raise BatchSetupError(message) from error
        try:
            yield from self._drain(client, distributed, units, options)
        finally:
            client.close()

    def _drain(
        self, client: Any, distributed: Any, units: Sequence[WorkUnit], options: WorkOptions
    ) -> Iterator[UnitOutcome]:
        """Submit units as others finish; yield each outcome."""
        threads = max(1, sum(client.nthreads().values()))
        limit = IN_FLIGHT_PER_WORKER * threads
        payloads = PayloadReader()
        queue = iter(units)
        owner: dict[str, WorkUnit] = {}
        run = f"sudokucam-{uuid.uuid4().hex[:8]}"
        running = distributed.as_completed()

        def submit_next() -> Iterator[UnitOutcome]:
            """Submit the next unit; yield an outcome at once if its bytes cannot be read."""
            for unit in queue:
                try:
                    payload = payloads(unit)
                except BatchInputError as error:
                    yield error_outcome(unit, str(error))
                    continue
                future = client.submit(
                    process_unit, unit, payload, options, pure=False, key=f"{run}-{unit.uid}"
                )
                owner[future.key] = unit
                running.add(future)
                return

        try:
            client.submit(worker_ready, options, pure=False).result()
        except SudokucamError as error:
            raise BatchSetupError(f"the Dask workers cannot start: {error}") from error
        for _ in range(limit):
            yield from submit_next()
        for future in running:
            unit = owner.pop(future.key)
            try:
                yield future.result()
            except Exception as error:  # a worker lost or killed: record it, go on
                message = f"Dask could not read {unit.label}: {error}"
                yield error_outcome(unit, message, traceback.format_exc())
            finally:
                future.release()
            yield from submit_next()


def import_distributed() -> Any:
    """The `distributed` module, or a BatchSetupError saying how to install it."""
    try:
        import distributed
    except ImportError as error:
        raise BatchSetupError(
            "the Dask executor needs dask.distributed: pip install 'sudokucam[dask]'"
        ) from error
    return distributed


def dask_address(text: str) -> str:
    """The scheduler address for Dask from dask://HOST:PORT (tcp://, tls:// also accepted)."""
    scheme, sep, rest = text.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in DASK_SCHEMES or not colon or not host or not port.isdigit():
        raise ValueError(f"executor must look like dask://HOST:PORT, got {text!r}")
    return f"{DASK_SCHEMES[scheme]}://{host}:{port}"


def make_executor(spec: str, workers: int) -> Executor:
    """The executor named by ``spec``: "local" (a process pool) or dask://HOST:PORT."""
    if spec == "local":
        return LocalExecutor(workers)
    return DaskExecutor(spec)


@dataclass(frozen=True)
class BatchSummary:
    """What a batch did, counted over all its inputs (this run and earlier ones)."""

    pages: int
    pages_read_now: int
    pages_reused: int
    grids: int
    grids_solved: int
    pages_without_grid: int
    failed: int
    skipped: int
    seconds: float
    skipped_files: tuple[Skipped, ...] = ()  # in input order, each with its reason
    failures: tuple[tuple[str, str], ...] = ()  # (label, error) of each failed input or page

    @property
    def ok(self) -> bool:
        """True when every input was read and every grid found was solved."""
        return self.failed == 0 and self.pages_without_grid == 0 and self.grids_solved == self.grids

    @property
    def pages_per_second(self) -> float:
        """Pages read in this run per second of wall time."""
        return self.pages_read_now / self.seconds if self.seconds > 0 else 0.0


ProgressCallback = Callable[[StoredUnit], None]


@dataclass(frozen=True)
class BatchPlan:
    """The work of a batch: units still to read and what earlier runs stored.

    stems: the stem each input file's solved images are named with (``source_stems``).
    """

    inputs: Inputs
    todo: tuple[WorkUnit, ...]
    stored: Mapping[str, StoredUnit]
    stems: Mapping[FileKey, str] = field(default_factory=dict)


def plan_batch(
    inputs: Sequence[Path], store: BatchStore, *, retry_failed: bool = False
) -> BatchPlan:
    """Find the inputs (never the store's own folder), store failed ones, and split the
    units into done and to do."""
    found = discover(inputs, exclude=(store.out,))
    store.remove_leftovers()
    stored: dict[str, StoredUnit] = {}
    for failure in found.failures:
        earlier = store.load(failure.unit)
        stored[failure.unit.uid] = earlier or store.commit(failure_outcome(failure))
    todo: list[WorkUnit] = []
    for unit in found.units:
        earlier = store.load(unit)
        if earlier is None or (retry_failed and earlier.failed):
            todo.append(unit)
        else:
            stored[unit.uid] = earlier
    stems = source_stems((unit.file_key for unit in found.units), _taken(found, stored, store))
    return BatchPlan(found, tuple(todo), stored, stems)


def _taken(
    found: Inputs, stored: Mapping[str, StoredUnit], store: BatchStore
) -> dict[FileKey, str]:
    """Image stems already taken in the output folder, by file.

    Those of this pile's stored units, and those of other files that wrote to the same
    folder (older versions of a file in the pile excepted: a changed file keeps its stem).
    """
    sources = {unit.source for unit in found.units}
    others = [u for u in store.other_units(stored) if u.unit.source not in sources]
    return {**recorded_stems(others), **recorded_stems(stored.values())}


@dataclass(frozen=True)
class TableRefreshConfig:
    """How often results.jsonl and summary.csv are rewritten while a batch runs.

    They are rewritten whole (atomically) when the batch starts, after a unit finishes
    once at least ``last rewrite's duration / max_share`` has passed since the last
    rewrite, and at the end. Rewriting thus takes at most ``max_share`` of the batch's
    time: after every unit on ordinary batches (a rewrite takes milliseconds), every few
    seconds on huge ones, where each rewrite costs more (it is O(rows)).
    """

    max_share: float = 0.05

    def __post_init__(self) -> None:
        """Refuse a share outside (0, 1]."""
        if not 0 < self.max_share <= 1:
            raise ValueError(f"max_share must be in (0, 1], got {self.max_share}")


class _Tables:
    """Rewrites the result tables of a running batch, no more often than its config says."""

    def __init__(self, store: BatchStore, inputs: Inputs, config: TableRefreshConfig) -> None:
        self.store = store
        self.inputs = inputs
        self.config = config
        self.next_at = 0.0

    def write(self, stored: Mapping[str, StoredUnit]) -> None:
        """Rewrite both tables now from the units stored so far."""
        start = time.perf_counter()
        self.store.write_tables(table_rows(self.inputs, stored))
        end = time.perf_counter()
        self.next_at = end + (end - start) / self.config.max_share

    def refresh(self, stored: Mapping[str, StoredUnit]) -> None:
        """Rewrite both tables if the time budget allows it now."""
        if time.perf_counter() >= self.next_at:
            self.write(stored)


def run_plan(
    plan: BatchPlan,
    store: BatchStore,
    executor: Executor,
    options: WorkOptions,
    on_unit: ProgressCallback | None = None,
    refresh: TableRefreshConfig | None = None,
) -> BatchSummary:
    """Read the units still to do and store each as it finishes, keeping the tables fresh.

    A unit's record is written before the tables list it, so the tables never name a
    unit a resumed batch would read again. When the batch stops early (an interrupt, a
    full disk: ``StoreWriteError``) the workers are stopped, the tables are rewritten if
    they can be, and the first error is raised.
    """
    started = time.perf_counter()
    stored = dict(plan.stored)
    tables = _Tables(store, plan.inputs, refresh or TableRefreshConfig())
    tables.write(stored)
    read_now = 0
    outcomes = executor.map(plan.todo, options)
    try:
        for outcome in outcomes:
            unit_record = store.commit(outcome, plan.stems.get(outcome.unit.file_key))
            stored[outcome.unit.uid] = unit_record
            read_now += 1
            tables.refresh(stored)
            if on_unit is not None:
                on_unit(unit_record)
    except BaseException:
        outcomes.close()
        with contextlib.suppress(StoreWriteError):  # a full disk must not hide the cause
            tables.write(stored)
        raise
    outcomes.close()
    tables.write(stored)
    return summarize(plan, stored, read_now, time.perf_counter() - started)


def table_rows(found: Inputs, stored: Mapping[str, StoredUnit]) -> list[Record]:
    """The rows of results.jsonl in input order: units stored so far, then skipped files."""
    rows: list[Record] = []
    for failure in found.failures:
        rows.extend(stored[failure.unit.uid].rows)
    for unit in found.units:
        if unit.uid in stored:
            rows.extend(stored[unit.uid].rows)
    rows.extend(skipped_row(skipped) for skipped in found.skipped)
    return rows


def summarize(
    plan: BatchPlan, stored: Mapping[str, StoredUnit], read_now: int, seconds: float
) -> BatchSummary:
    """Count pages, grids, solved grids and failures over every stored unit."""
    units = [stored[u.uid] for u in plan.inputs.units if u.uid in stored]
    failures = [stored[f.unit.uid] for f in plan.inputs.failures]
    grid_rows = [row for unit in units for row in unit.rows if row.get("grid") is not None]
    return BatchSummary(
        pages=len(plan.inputs.units),
        pages_read_now=read_now,
        pages_reused=len(plan.inputs.units) - len(plan.todo),
        grids=len(grid_rows),
        grids_solved=sum(1 for row in grid_rows if row.get("status") in SOLVED_OUTCOMES),
        pages_without_grid=sum(1 for unit in units if not unit.failed and _no_grid(unit)),
        failed=len(failures) + sum(1 for unit in units if unit.failed),
        skipped=len(plan.inputs.skipped),
        seconds=seconds,
        skipped_files=plan.inputs.skipped,
        failures=tuple(
            (unit.unit.label, str(unit.rows[0].get("error")))
            for unit in (*failures, *units)
            if unit.failed
        ),
    )


def _no_grid(unit: StoredUnit) -> bool:
    """Whether a stored unit is a page read without finding any grid."""
    return all(row.get("grid") is None for row in unit.rows)
