"""The claims-ledger appendix's table and figure.

`ledger_gt` lays out the display rows `analysis.chapters.claims_ledger.table_rows` prepares;
`ratio_chart` draws each tested claim's evidence against the claim (`ratio_to_claim`, from
`analysis.methods.claims`) over the verdict rule's bands, which the chapter module gives. The
chart's data is the whole ledger, so the figure kit's CSV of it is the ledger a memo can cite.
Nothing is computed here.
"""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import CHART_WIDTH, PALETTE, wrapped_axis

# Supported, partly supported, contradicted (the order of analysis.methods.claims.VERDICTS).
VERDICT_COLORS = [PALETTE[2], PALETTE[1], PALETTE[3]]


def rule_gt(types: pl.DataFrame, tolerances: pl.DataFrame) -> GT:
    """The verdict rule's two tables as one: each claim type (what it asserts, what is judged),
    then each unit's tolerance with its reason."""
    rows = pl.concat(
        [
            types.select(
                pl.lit("claim type").alias("part"),
                pl.col("claim_type").alias("name"),
                pl.col("asserts").alias("rule"),
                pl.col("judged_by").alias("detail"),
            ),
            tolerances.select(
                pl.lit("unit tolerance").alias("part"),
                pl.col("unit").alias("name"),
                (
                    pl.lit("supported within ")
                    + pl.col("tolerance")
                    + pl.lit(", partly within ")
                    + pl.col("partly_within")
                ).alias("rule"),
                pl.col("reason").alias("detail"),
            ),
        ]
    )
    return (
        GT(rows, groupname_col="part")
        .cols_label(name="", rule="Rule", detail="Why, or what is judged")
        .cols_align("left")
    )


LEDGER_WIDTH = "960px"


def ledger_gt(rows: pl.DataFrame) -> GT:
    """One row per claim: its words, digest date, subject, claimed value, verdict, evidence and
    the section that discusses it (a Markdown link)."""
    return (
        GT(rows)
        .cols_label(
            claim="Claim",
            digest="Digest",
            subject="About",
            claimed="Claimed",
            verdict="Verdict",
            evidence="Evidence",
            section="Section",
        )
        .fmt_markdown(["section"])
        .cols_align("left")
        # Seven columns hold their longest words ("contradicted", "(approximate)", a section's
        # name) only at this width: narrower columns cut them, so the table keeps it and
        # scrolls sideways in a narrower page (assets/table-scroll.html).
        .cols_width(
            {
                "claim": "19%",
                "digest": "8%",
                "subject": "13%",
                "claimed": "13%",
                "verdict": "12%",
                "evidence": "25%",
                "section": "10%",
            }
        )
        .tab_options(table_width=LEDGER_WIDTH)
        .sub_missing(missing_text="")
    )


def ratio_chart(ledger: pl.DataFrame, bands: pl.DataFrame, verdicts: list[str]) -> alt.LayerChart:
    """Each tested claim's evidence over the claim (log scale; 1 is inside the claim), coloured by
    verdict, with its interval over the same reference (`ratio_low`, `ratio_high`), over `bands` (columns `low`, `high`, `band`: the rule's tolerance and partly bands).
    `ledger` is the ledger with dates as text (`claims_ledger.chart_rows`); untested claims have
    no ratio and are not drawn."""
    order = alt.EncodingSortField("ratio_to_claim", order="ascending")
    x_scale = alt.Scale(type="log")
    band = (
        alt.Chart(bands)
        .mark_rect(opacity=0.15, color=PALETTE[0])
        .encode(x=alt.X("low:Q", scale=x_scale), x2="high:Q", tooltip=["band:N"])
    )
    # Each claim by what it is about (`subject`, as the ledger's table has it: "Scheduled price
    # change of Gemini 3.8 Flash"), on two lines where long; its id in words ("Gemini 3.8 flash
    # price doubling", "Gpt 4 equivalent price now") was an id, not a name.
    y = alt.Y(
        "subject:N",
        sort=order,
        title=None,
        axis=wrapped_axis(most=36, size=11),
    )
    whiskers = (
        alt.Chart()
        .transform_filter("isValid(datum.ratio_low) && isValid(datum.ratio_to_claim)")
        .mark_rule(color="#555555")
        .encode(x=alt.X("ratio_low:Q", scale=x_scale), x2="ratio_high:Q", y=y)
    )
    points = (
        alt.Chart()
        .transform_filter("isValid(datum.ratio_to_claim)")
        .mark_point(filled=True, size=70)
        .encode(
            x=alt.X(
                "ratio_to_claim:Q",
                scale=x_scale,
                title="Evidence over the claim (log; 1: inside the claim)",
            ),
            y=y,
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(domain=verdicts, range=VERDICT_COLORS),
                title="Verdict",
                legend=alt.Legend(orient="bottom"),
            ),
            tooltip=[
                "subject:N",
                "claim:N",
                "claimed:Q",
                "claimed_high:Q",
                "unit:N",
                "evidence_value:Q",
                "verdict:N",
            ],
        )
    )
    # The ledger is the layer's own data (the kit's main CSV); the bands are a second layer's.
    return alt.layer(band, whiskers, points, data=ledger).properties(
        width=CHART_WIDTH,
        height=alt.Step(28),  # a row holds a two-line subject
        title="The digests' claims against the data",
        description="Evidence over claim for each tested digest claim",
    )
