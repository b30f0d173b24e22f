"""The book's shared fitted results, one function each, computed once per data version.

The estimate registry (`analysis.report.estimates`) and the chapter modules both start from these,
so a number the summary page quotes and the number its chapter quotes come from one computation.
Each function takes a data version (None: the current one) and caches its result for the process;
the costly fits are also kept on disk (analysis.data.cache), so the second output format, run in
a fresh kernel, reuses the first's (benchmarks/bench_formats.py).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis import data
from analysis.data import gpu_evidence
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods import (
    dispersion,
    gpu_prices,
    hedonic,
    llmflation,
    prices,
    tokens_per_dollar,
    windows,
)
from analysis.methods import fixed_capability as fc
from analysis.methods.trends import DeclineFit


def version(v: str | None = None) -> str:
    """The data version a result is for: `v`, else $BOOK_DATA_VERSION, else the latest."""
    return data.current_version(v)


def version_date(name: str) -> date:
    """The date a version name starts with: `2026-12-01` and `2026-12-01.2` are both Dec 1."""
    return date.fromisoformat(name[:10])


def release_date(v: str | None = None) -> date:
    """The date of a release (None: the current one), recorded as read (data.release_date)."""
    return data.release_date(version(v))


# Tables whose rows carry anomaly flags (curated releases): analyses drop flagged rows by default.
FLAGGED_TABLES = ("token_prices", "gpu_hour_prices", "benchmark_scores")


@memo
def _cleaned(name: str, v: str, keep: tuple[str, ...]) -> tuple[pl.DataFrame, dict[str, int]]:
    return prices.clean(_loaded(name, v), keep=keep)


def _loaded(name: str, v: str) -> pl.DataFrame:
    """A table as released; gpu_hour_prices with its `evidence_class` (analysis.data.gpu_evidence)."""
    frame = data.load(name, v)
    return gpu_evidence.with_evidence_class(frame) if name == "gpu_hour_prices" else frame


def raw_table(name: str, v: str | None = None) -> pl.DataFrame:
    """A table of one release with every row, flagged ones too (gpu_hour_prices with its
    evidence class)."""
    return _loaded(name, version(v))


def gpu_prices_of(
    v: str | None = None,
    evidence: str = gpu_evidence.DEFAULT_VARIANT,
    *,
    keep: tuple[str, ...] = (),
) -> pl.DataFrame:
    """The clean gpu_hour_prices rows of one evidence variant (gpu_evidence.VARIANTS: `direct`,
    the default, `without-restated`, `all`)."""
    return gpu_evidence.select(table("gpu_hour_prices", v, keep=keep), evidence)


def table(name: str, v: str | None = None, *, keep: tuple[str, ...] = ()) -> pl.DataFrame:
    """A table of one release; for the flagged tables, without the rows an anomaly rule flags
    (`keep` names rules whose rows stay in)."""
    if name in FLAGGED_TABLES:
        return _cleaned(name, version(v), tuple(keep))[0]
    return data.load(name, version(v))


def removed(name: str, v: str | None = None) -> dict[str, int]:
    """Rows of a flagged table each anomaly rule removed (a row with several flags counts under
    each); empty for releases without flags."""
    return _cleaned(name, version(v), ())[1] if name in FLAGGED_TABLES else {}


def token_tables(v: str | None = None) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(token_prices, benchmark_scores, models) of one release."""
    return table("token_prices", v), table("benchmark_scores", v), table("models", v)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _epoch(v: str, bootstrap: bool) -> pl.DataFrame:
    return fc.reproduce_epoch(*token_tables(v), bootstrap=bootstrap)


def epoch(v: str | None = None, *, bootstrap: bool = False) -> pl.DataFrame:
    """Epoch AI's fixed-capability table reproduced from the release's Epoch-sourced rows."""
    return _epoch(version(v), bootstrap)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _epoch_staircase(v: str, benchmark: str, threshold: float) -> tuple[pl.DataFrame, DeclineFit]:
    return fc.staircase_fit(fc.epoch_observations(*token_tables(v), benchmark), threshold)


def epoch_staircase(
    v: str | None, benchmark: str, threshold: float
) -> tuple[pl.DataFrame, DeclineFit]:
    """One staircase of Epoch's table and its fitted trend: `fc.staircase_fit` of the release's
    `fc.epoch_observations` on `benchmark` at the score `threshold`."""
    return _epoch_staircase(version(v), benchmark, threshold)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _extension(v: str, include_reasoning: bool) -> pl.DataFrame:
    return fc.extension_trends(*token_tables(v), include_reasoning=include_reasoning)


def extension(v: str | None = None, *, include_reasoning: bool = False) -> pl.DataFrame:
    """Epoch's method on the release's full data."""
    return _extension(version(v), include_reasoning)


def trend_row(trends: pl.DataFrame, benchmark: str, threshold_model: str) -> dict:
    """The one trend of a fixed-capability table set by `threshold_model` on `benchmark`
    (matched case-insensitively: Epoch's ids are capitalised, the book's are slugs)."""
    rows = trends.filter(
        (pl.col("benchmark") == benchmark)
        & (pl.col("threshold_model").str.to_lowercase() == threshold_model.lower())
    )
    if rows.height != 1:
        raise LookupError(
            f"expected one {benchmark} trend at the threshold of {threshold_model}, "
            f"found {rows.height}"
        )
    return rows.row(0, named=True)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _a16z(v: str) -> tuple[pl.DataFrame, dict]:
    token_prices, scores, _ = token_tables(v)
    return llmflation.reproduce_a16z(token_prices, scores, through=release_date(v), data_version=v)


def a16z(v: str | None = None) -> tuple[pl.DataFrame, dict]:
    """a16z's LLMflation series and fits on the release (see `llmflation.reproduce_a16z`)."""
    return _a16z(version(v))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _hedonic(v: str, date_from: str) -> pl.DataFrame:
    return hedonic.hedonic_table(*token_tables(v), date_from=date_from, data_version=v)


def hedonic_fits(v: str | None = None, *, date_from: str = "latest") -> pl.DataFrame:
    """The hedonic regressions, every benchmark x sample, under one dating rule."""
    return _hedonic(version(v), date_from)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _reference_index(v: str, benchmark: str, samples: tuple[str, ...]) -> hedonic.ReferenceIndex:
    obs = hedonic.observations(*token_tables(v), benchmark)
    return hedonic.reference_index(obs, benchmark, list(samples))


def reference_index(v: str | None, benchmark: str, samples: list[str]) -> hedonic.ReferenceIndex:
    """The quality-adjusted price index of each of `samples` at the frontier's median score on
    `benchmark`: `hedonic.reference_index` of the release's `hedonic.observations`."""
    return _reference_index(version(v), benchmark, tuple(samples))


@memo
def _spread(v: str, keep: tuple[str, ...]) -> dict:
    token_prices = table("token_prices", v, keep=keep)
    return dispersion.summary(token_prices, table("models", v), table("claims", v), data_version=v)


def spread(v: str | None = None, *, keep: tuple[str, ...] = ()) -> dict:
    """The provider spread of open models against the digests' claimed multiple (`keep`: anomaly
    rules whose rows stay in, to show the estimate with and without a rule)."""
    return _spread(version(v), tuple(keep))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _gpu_declines(v: str, keep: tuple[str, ...], evidence: str) -> pl.DataFrame:
    rows = gpu_prices_of(v, evidence, keep=keep)
    return gpu_prices.decline_rates(rows, data_version=v).with_columns(
        pl.lit(evidence).alias("evidence")
    )


def gpu_declines(
    v: str | None = None, *, keep: tuple[str, ...] = (), evidence: str = "direct"
) -> pl.DataFrame:
    """GPU-hour price declines by GPU group and pricing type, on one evidence variant
    (`gpu_evidence.VARIANTS`; direct observations by default), with `evidence` naming it
    (`keep`: anomaly rules whose rows stay)."""
    return _gpu_declines(version(v), tuple(keep), evidence)


@memo
def _gpu_decline(v: str, gpu_group: str, pricing: str, evidence: str) -> dict:
    rows = gpu_prices_of(v, evidence)
    rates = gpu_prices.decline_rates(rows, data_version=v, only=(gpu_group, pricing))
    return rates.row(0, named=True)


def gpu_decline(v: str | None, gpu_group: str, pricing: str, evidence: str = "direct") -> dict:
    """One group's row of `gpu_declines` (the same fit), without fitting every other group's:
    the estimate registry, run on every release, needs the H100's alone."""
    return _gpu_decline(version(v), gpu_group, pricing, evidence)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _hyperscaler_gap(v: str, evidence: str, level: float) -> tuple[pl.DataFrame, dict]:
    return gpu_prices.hyperscaler_gap(gpu_prices_of(v, evidence), level=level, data_version=v)


def hyperscaler_gap(
    v: str | None, *, level: float, evidence: str = "direct"
) -> tuple[pl.DataFrame, dict]:
    """`gpu_prices.hyperscaler_gap` on one evidence variant (direct observations by default):
    the month pairs of hyperscaler and smaller-cloud prices, and their mean ratio."""
    return _hyperscaler_gap(version(v), evidence, level)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def _flops_trends(v: str) -> dict[str, dict]:
    specs, prices = table("gpu_specs", v), table("gpu_hour_prices", v)

    def rental(rows: pl.DataFrame) -> dict:
        per_dollar = gpu_prices.flops_per_rental_dollar(rows, specs)
        return gpu_prices.flops_per_dollar_trend(
            per_dollar, date_col="month", value_col="flop_per_usd", data_version=v
        )

    at_release = gpu_prices.flops_per_dollar_at_release(specs)
    return {
        "purchase": gpu_prices.flops_per_dollar_trend(at_release, data_version=v),
        "rental": rental(gpu_evidence.select(prices)),  # direct observations
        "rental_all": rental(prices),
    }


def flops_trends(v: str | None = None) -> dict[str, dict]:
    """`gpu_prices.flops_per_dollar_trend` of FLOP/s per dollar at release prices (`purchase`)
    and at rental prices (`gpu_prices.flops_per_rental_dollar`) of direct observations
    (`rental`) and of all rows (`rental_all`)."""
    return _flops_trends(version(v))


def gpu_panel_evidence(
    v: str | None, gpu_group: str, pricing: str, evidence: str = "direct"
) -> dict:
    """The evidence behind one decline: the classes of the provider-months the fit uses (the
    rows of the panel `gpu_prices.decline_rates` fits), how many provider-months each class
    gives, and the providers."""
    rows = gpu_prices_of(v, evidence)
    return gpu_prices.panel_evidence(rows, gpu_group, pricing)


@memo
def _gpu_index(v: str) -> tuple[pl.DataFrame, dict]:
    prices = table("gpu_hour_prices", v)
    w = gpu_prices.hedonic_window(prices)
    base = windows.fixed_base(w, gpu_prices.HEDONIC_BASE_MONTH, "hedonic index")
    return gpu_prices.hedonic_index(
        prices, data_version=v, start=w.start, end=w.end, base_month=base
    )


def gpu_index(v: str | None = None) -> tuple[pl.DataFrame, dict]:
    """The time-dummy hedonic index of GPU-hour prices and its summary."""
    return _gpu_index(version(v))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def _gpu_index_from(v: str, start: date) -> tuple[pl.DataFrame, dict]:
    return gpu_prices.hedonic_index(table("gpu_hour_prices", v), data_version=v, start=start)


def gpu_index_from(v: str | None, start: date) -> tuple[pl.DataFrame, dict]:
    """`gpu_prices.hedonic_index` of the release's clean GPU-hour prices from the month `start`
    to the last, relative to `start`."""
    return _gpu_index_from(version(v), start)


def gpu_index_evidence(v: str | None = None) -> dict:
    """The evidence classes of the rows the hedonic index is fitted to (central statistics,
    aggregates dropped, from its start month): classes, rows per class and providers."""
    prices = table("gpu_hour_prices", v)
    w = gpu_prices.hedonic_window(prices)
    rows = prices.filter(
        pl.col("statistic").is_in(gpu_prices.CENTRAL_STATISTICS),
        ~gpu_prices.is_aggregate(),
        pl.col("date").dt.truncate("1mo").is_between(w.start, w.end),
    )
    counts = dict(sorted(rows.group_by("evidence_class").len().rows()))
    return {
        "classes": sorted(counts),
        "n_by_class": counts,
        "n_providers": rows["provider"].n_unique(),
    }


@memo
def _mlperf_costs(v: str) -> pl.DataFrame:
    per_acc = tokens_per_dollar.mlperf_per_accelerator(table("mlperf_results", v))
    return tokens_per_dollar.mlperf_usd_per_mtok(
        per_acc,
        table("gpu_hour_prices", v),
        pricing=tokens_per_dollar.PRICING,
        max_lag_months=tokens_per_dollar.MAX_LAG_MONTHS,
    )


def defensible_prices(v: str | None, gpu: str, d: date) -> pl.DataFrame:
    """Every defensible GPU-hour price of `gpu` on `d` (`tokens_per_dollar.defensible_prices`):
    the on-demand median of each evidence variant, the index, InferenceX's three costs."""
    v = version(v)
    tco = table("tco_assumptions", v) if "tco_assumptions" in data.tables(v) else None
    return tokens_per_dollar.defensible_prices(
        table("gpu_hour_prices", v), tco, gpu, d, max_lag_months=tokens_per_dollar.MAX_LAG_MONTHS
    )


def mlperf_costs(v: str | None = None) -> pl.DataFrame:
    """Hardware cost per million tokens of every MLPerf result, at the GPU-hour price in force."""
    return _mlperf_costs(version(v))


def removed_text(names: tuple[str, ...], v: str | None = None) -> str:
    """The rows the anomaly rules removed from `names`, as the chapters state it: `token_prices:
    52 placeholder price, 316 superseded stale; ...` (rule ids with spaces), or why none were."""
    parts = []
    for name in names:
        counts = removed(name, v)
        if counts:
            rules = ", ".join(f"{n:,} {rule.replace('_', ' ')}" for rule, n in counts.items())
            parts.append(f"{name.replace('_', ' ')}: {rules}")
    if parts:
        return "; ".join(parts)
    present = set(data.tables(version(v)))
    if not any(prices.FLAGS in data.fields(name, version(v)) for name in names if name in present):
        return "none, because this release has no anomaly flags"
    return "none"
