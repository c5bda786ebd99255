"""Timing: clocks and timers a cell could use to measure the host."""

from __future__ import annotations

from ._model import TIMING, Attack, make

TIMING_ATTACKS: tuple[Attack, ...] = (
    make(
        "date-now-frozen",
        TIMING,
        "[Date.now(), new Date().getTime(), new Date().toISOString()]",
        'value:[0, 0, "1970-01-01T00:00:00.000Z"]',
        "the host clock is not visible",
    ),
    make(
        "date-now-descriptor",
        TIMING,
        "Object.getOwnPropertyDescriptor(Date, 'now').value()",
        "value:0",
        "the original Date.now read through its property descriptor",
    ),
    make(
        "date-now-reflect",
        TIMING,
        "Reflect.get(Object.getOwnPropertyDescriptors(Date).now, 'value')()",
        "value:0",
        "the original Date.now read through getOwnPropertyDescriptors",
    ),
    make(
        "date-constructor-chain",
        TIMING,
        "[new (Object.getPrototypeOf(new Date()).constructor)().getTime(), Reflect.construct(Date, []).getTime(), (class extends Date {}).now()]",
        "value:[0, 0, 0]",
        "the Date constructor reached through prototypes and subclasses",
    ),
    make("date-call", TIMING, "Date()", "value:Thu Jan 01 1970 00:00:00 GMT+0000 (GMT)", "Date called as a function"),
    make(
        "intl-format-now",
        TIMING,
        "new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}).format()",
        "value:1/1/1970",
        "Intl.DateTimeFormat formats the current time when given no date",
    ),
    make(
        "intl-format-to-parts-now",
        TIMING,
        "new Intl.DateTimeFormat('en-US', {timeZone: 'UTC', year: 'numeric'}).formatToParts().map(p => p.value).join('')",
        "value:1970",
        "formatToParts with no date",
    ),
    make(
        "intl-format-stays-usable",
        TIMING,
        "const f = new Intl.DateTimeFormat('en-US', {timeZone: 'UTC'}); [f.format === f.format, ['2024-05-06'].map(d => f.format(new Date(d)))[0]]",
        'value:[true, "5/6/2024"]',
        "the frozen format is cached per formatter and formats given dates as usual",
    ),
    make("performance-now", TIMING, "performance.now()", "error:ReferenceError", "high-resolution timer"),
    make("process-hrtime", TIMING, "process.hrtime.bigint()", "error:ReferenceError", "Node high-resolution timer"),
    make("temporal-now", TIMING, "typeof Temporal", "value:undefined", "Temporal.Now"),
    make(
        "shared-array-buffer-counter",
        TIMING,
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(16)), 0, 0, 10)",
        "error:TypeError",
        "timed Atomics.wait as a clock",
    ),
)
