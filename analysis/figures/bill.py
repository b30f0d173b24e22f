"""Charts and tables of "What a workload costs".

Every builder takes a frame `analysis.methods.bill` makes (`bills_frame`, a
`FixedCapabilityBill`'s steps) and only selects, labels and formats.
"""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE, display_name, named, wrapped_axis

BUCKET_NAMES = {
    "input_per_day": "uncached input",
    "cached_input_per_day": "cached input",
    "cache_write_per_day": "cache write",
    "output_per_day": "output",
    "reasoning_per_day": "reasoning",
}


# An offer's name is never cut: a long one ("Kimi K3 (Moonshot AI (Kimi), mxfp4)") takes two
# lines, and each bar's row is tall enough for two.
OFFER_AXIS = wrapped_axis()
OFFER_ROW = alt.Step(28)


def offer_name() -> pl.Expr:
    """ "Model (Seller)", or "Model (Seller, offer)" where a seller has two offers of one model
    (e.g. a quantisation), in display names."""
    model, provider = named("model_id", "model"), named("provider", "provider")
    return (
        pl.when(pl.col("offer") == "")
        .then(pl.format("{} ({})", model, provider))
        .otherwise(pl.format("{} ({}, {})", model, provider, "offer"))
    )


def buckets_chart(bills: pl.DataFrame) -> alt.Chart:
    """Each offer's bill per 30 days, split by token bucket, one row of bars per workload."""
    long = (
        bills.with_columns(
            # a seller with two offers of one model (e.g. a quantisation) gets two bars
            offer_name().alias("offer_name")
        )
        .unpivot(
            index=["workload", "offer_name"],
            on=list(BUCKET_NAMES),
            variable_name="bucket",
            value_name="bucket_per_day",
        )
        .with_columns(
            pl.col("bucket").replace_strict(BUCKET_NAMES),
            (pl.col("bucket_per_day") * 30).alias("per_30_days"),
        )
        .filter(pl.col("per_30_days") > 0)
    )
    present = [b for b in BUCKET_NAMES.values() if b in set(long["bucket"])]
    return (
        alt.Chart(
            long,
            description="Each offer's bill per 30 days for three workloads, split by token bucket",
        )
        .mark_bar()
        .encode(
            y=alt.Y("offer_name:N", title=None, sort="-x", axis=OFFER_AXIS),
            x=alt.X("sum(per_30_days):Q", title="USD per 30 days"),
            color=alt.Color(
                "bucket:N",
                title="Token bucket",
                scale=alt.Scale(domain=present),
                legend=alt.Legend(orient="bottom"),  # beside the bars it pushes past the column
            ),
            row=alt.Row(
                "workload:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")
            ),
            tooltip=["offer_name:N", "bucket:N", alt.Tooltip("per_30_days:Q", format=",.0f")],
        )
        .resolve_scale(x="independent", y="independent")
        .properties(
            width=300, height=OFFER_ROW, title="What each workload costs a month, by token bucket"
        )
    )


def fixed_capability_chart(steps: pl.DataFrame, workload: str, threshold_model: str) -> alt.Chart:
    """The workload's bill per 30 days on the cheapest model reaching a fixed score, log scale."""
    df = steps.with_columns((pl.col("per_day") * 30).alias("per_30_days"), named("model", "model"))
    threshold_model = display_name("model", threshold_model)
    return (
        alt.Chart(
            df,
            description=f"The {workload} workload's monthly bill at {threshold_model}'s GPQA Diamond score, log scale",
        )
        .mark_line(point=True, interpolate="step-after")
        .encode(
            x=alt.X("date:T", title=None),
            y=alt.Y("per_30_days:Q", scale=alt.Scale(type="log"), title="USD per 30 days (log)"),
            tooltip=["model:N", "date:T", alt.Tooltip("per_30_days:Q", format=",.2f")],
        )
        .properties(width=520, title=f"The {workload} at fixed capability")
    )


def bills_gt(bills: pl.DataFrame) -> GT:
    """One row per workload and offer: bill per 30 days and the output-and-reasoning share."""
    df = bills.select(
        "workload",
        named("model_id", "model"),
        named("provider", "provider"),
        "per_30_days",
        "output_and_reasoning_share",
        "price_kinds",
    )
    return (
        GT(df, groupname_col="workload")
        .cols_label(
            model_id="Model",
            provider="Seller",
            per_30_days="Per 30 days",
            output_and_reasoning_share="Output and reasoning",
            price_kinds="Price kinds",
        )
        .fmt_currency(["per_30_days"], decimals=0)
        .fmt_percent(["output_and_reasoning_share"], decimals=0)
    )


def leaderboard_gt(board: pl.DataFrame) -> GT:
    """A leaderboard's published cost of each benchmark run beside the book's bill for its
    tokens (`bill.leaderboard_costs`), USD."""
    df = board.select(
        "run",
        named("model_id", "model"),
        (pl.col("input_tokens") / 1e6).alias("input_mtok"),
        (pl.col("output_tokens") / 1e6).alias("output_mtok"),
        "published_output",
        "book_output",
        "published_input",
        "book_input_uncached",
        "implied_cache_hit_share",
        "published_total",
        "book_total_uncached",
    )
    return (
        GT(df)
        .cols_label(
            run="Run",
            model_id="Model",
            input_mtok="Input",
            output_mtok="Output",
            published_output="Published",
            book_output="Book",
            published_input="Published",
            book_input_uncached="Book, uncached",
            implied_cache_hit_share="Hit share closing the gap",
            published_total="Published",
            book_total_uncached="Book, uncached",
        )
        .tab_spanner("Tokens (millions)", ["input_mtok", "output_mtok"])
        .tab_spanner("Output cost", ["published_output", "book_output"])
        .tab_spanner(
            "Input cost", ["published_input", "book_input_uncached", "implied_cache_hit_share"]
        )
        .tab_spanner("Total", ["published_total", "book_total_uncached"])
        .fmt_number(["input_mtok", "output_mtok"], decimals=1)
        .fmt_currency(
            [
                "published_output",
                "book_output",
                "published_input",
                "book_input_uncached",
                "published_total",
                "book_total_uncached",
            ],
            decimals=2,
        )
        .fmt_percent(["implied_cache_hit_share"], decimals=0)
    )


# The calculator's inputs: column of `bill.effective_rates` -> (param, label, maximum, step).
CALCULATOR_INPUTS = {
    "input_tokens": ("p_input", "Input tokens per request ", 200_000, 500),
    "output_tokens": ("p_output", "Output tokens ", 20_000, 100),
    "reasoning_tokens": ("p_reasoning", "Reasoning tokens ", 50_000, 500),
    "cache_hit_share": ("p_hit", "Cache-hit share ", 1, 0.05),
    "requests_per_day": ("p_requests", "Requests per day ", 500_000, 1000),
}


def calculator_chart(rates: pl.DataFrame, default: str) -> alt.LayerChart:
    """An interactive bill calculator (`bill.effective_rates`): pick a preset and the inputs
    show its tokens per request, cache-hit share and requests per day; edit them and each
    offer's bill follows at the offer's average rates. The bill is always that of the values
    the inputs show. Works offline: the data are embedded and the inputs are Vega bindings. An
    offer without a rate for a bucket the reader gives tokens shows "no rate", never a zero."""
    presets = {
        r["workload"]: {column: r[column] for column in CALCULATOR_INPUTS}
        for r in rates.unique("workload", maintain_order=True).iter_rows(named=True)
    }
    df = rates.with_columns(offer_name().alias("offer_name"))
    preset = alt.param(
        name="preset",
        value=default,
        bind=alt.binding_select(options=list(presets), name="Workload "),
    )
    table = alt.param(name="presets", value=presets)  # each preset's inputs, from its file
    # A bound param with an expression starts at the picked preset's value and takes it again
    # at each pick (`analysis.book.show` makes it follow); the reader's edits hold in between.
    inputs = {
        column: alt.param(
            name=name,
            value=presets[default][column],
            expr=f"presets[preset].{column}",
            bind=alt.binding_range(min=0, max=hi, step=step, name=label),
        )
        for column, (name, label, hi, step) in CALCULATOR_INPUTS.items()
    }
    i, o, r, h, n = (name for name, *_ in CALCULATOR_INPUTS.values())

    def part(tok: str, rate: str) -> str:
        # a bucket with tokens and no rate makes the bill NaN ("no rate"), never zero
        return f"(({tok}) > 0 ? (isValid(datum.{rate}) ? ({tok}) * datum.{rate} : NaN) : 0)"

    bill = (
        f"30 * ({n}) / 1e6 * ("
        + " + ".join(
            [
                part(f"({i}) * (1 - ({h}))", "input_rate"),
                part(f"({i}) * ({h})", "cached_input_rate"),
                part(o, "output_rate"),
                part(r, "reasoning_rate"),
            ]
        )
        + ")"
    )
    base = (
        alt.Chart(df, description="Interactive: a workload's bill per 30 days at each offer")
        .transform_filter("datum.workload == preset")
        .transform_calculate(bill=bill)
        .transform_calculate(
            label="isValid(datum.bill) && isFinite(datum.bill) ? format(datum.bill, '$,.0f') : 'no rate'"
        )
        .encode(
            y=alt.Y(
                "offer_name:N",
                title=None,
                sort=alt.EncodingSortField("per_30_days", order="descending"),
                axis=OFFER_AXIS,
            )
        )
    )
    bars = (
        base.transform_filter("isFinite(datum.bill)")
        .mark_bar(color=PALETTE[0])
        .encode(
            x=alt.X("bill:Q", title=BILL_TITLE),
            tooltip=["offer_name:N", alt.Tooltip("bill:Q", format="$,.0f")],
        )
    )
    # A label goes inside its bar's end, white on the bar, where the bar is long enough to hold
    # it (its share of the longest bill times the plot's `width` in px); else just past the end
    # in the text colour ("no rate" at the axis). Before, every label began at the axis in
    # black, so a short bar's "$3,061" ran over the bar's end, dark on blue.
    fits = f"isFinite(datum.bill) && datum.bill / datum.top * width >= {LABEL_ROOM}"
    labels = base.transform_joinaggregate(top="max(bill)").transform_calculate(
        end="isFinite(datum.bill) ? datum.bill : 0"
    )
    inside = (
        labels.transform_filter(fits)
        .mark_text(align="right", dx=-4, color="white")
        .encode(x=alt.X("end:Q", title=BILL_TITLE), text="label:N")
    )
    beside = (
        labels.transform_filter(f"!({fits})")
        .mark_text(align="left", dx=4, color=TEXT_COLOUR)
        .encode(x=alt.X("end:Q", title=BILL_TITLE), text="label:N")
    )
    return (
        alt.layer(bars, inside, beside)
        .add_params(preset, table, *inputs.values())
        .properties(
            width=480,
            height=OFFER_ROW,
            title="A workload's bill per 30 days (pick a preset, then edit its inputs)",
        )
    )


LABEL_ROOM = 72  # px of bar a bill label needs inside it ("$123,456" at 11 px, with margins)
TEXT_COLOUR = "#222222"
BILL_TITLE = "USD per 30 days"
