"""The workload-costs calculator in a real browser (issue 22): headless Chromium (Debian's
`chromium`, driven by Playwright) opens the offline preview's page with the network off, at 1400
and 1024 px. Picking each preset puts that preset's values in the inputs, read here from the
workload files themselves (workloads/*.yaml, parsed with PyYAML, not from the page or the
package); an edited input changes the bill as a hand calculation says.

Rates by hand (files under ../shared/sources): Claude Opus 5.5 at Anthropic 4 / 20 USD per 1M
input / output, cache read 0.20 (frontier-price-notes-2026-09/2026-09-23_aimeter__docs__pricing.md
line 8); GPT-5.6 Sol Pro at OpenAI's batch rate 2.5 / 15 (openrouter-sui414 endpoints 2026-08-08
line 719). Reasoning is billed at the output rate. With `pytest --screenshots DIR`, a screenshot
of each step is written to `DIR/calculator/calculator-<width>-<step>.png`.
"""

from __future__ import annotations

import re

import pytest
import yaml

from analysis.data.paths import ROOT

# Importing the site test skips this module too where it skips (no playwright, no chromium).
from tests.book.test_site_browser import (
    CHART_TIMEOUT_MS,
    WIDTHS,
    browser,  # noqa: F401  (the fixture: one headless Chromium for this module)
    offline_page,
    serve,
)

PAGE = "chapters/workload-costs.html"
FIGURE = ".book-chart[id^='vega-workload-costs-calculator']"
# The input's label on the page -> where the workload file states its value.
INPUTS = {
    "Input tokens per request": ("tokens_per_request", "input"),
    "Output tokens": ("tokens_per_request", "output"),
    "Reasoning tokens": ("tokens_per_request", "reasoning"),
    "Cache-hit share": ("cache_hit_share",),
    "Requests per day": ("requests_per_day",),
}
# Offer (as the chart names it) -> (input, cached input, output) USD per 1M, by hand (above).
HAND_RATES = {
    "Claude Opus 5.5 (Anthropic)": (4.0, 0.2, 20.0),
    "GPT-5.6 Sol Pro (OpenAI)": (2.5, None, 15.0),
}


def preset_files() -> dict[str, dict]:
    """Each preset's name -> the values its file states for the calculator's inputs."""
    out = {}
    for path in sorted((ROOT / "workloads").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        values = {}
        for label, keys in INPUTS.items():
            node = doc
            for key in keys:
                node = node.get(key, 0) if isinstance(node, dict) else node  # unstated: 0
            values[label] = float(node)
        out[doc["name"]] = values
    return out


def hand_bill(offer: str, v: dict[str, float]) -> float | None:
    """30 days of the workload the inputs `v` show, at the offer's rates by hand; None where
    the inputs give tokens to a bucket the offer has no rate for (the page says "no rate")."""
    rate_in, rate_cached, rate_out = HAND_RATES[offer]
    tokens, hit = v["Input tokens per request"], v["Cache-hit share"]
    if hit and rate_cached is None:
        return None
    output = v["Output tokens"] + v["Reasoning tokens"]  # reasoning at the output rate
    per_request = tokens * (1 - hit) * rate_in + tokens * hit * (rate_cached or 0)
    return 30 * v["Requests per day"] * (per_request + output * rate_out) / 1e6


def agrees(label: str, bill: float | None) -> bool:
    """The page's label says `bill` (to the dollar), or "no rate" where it is None."""
    if bill is None:
        return label == "no rate"
    return (
        re.fullmatch(r"\$[\d,]+", label) is not None
        and abs(float(label[1:].replace(",", "")) - bill) <= 0.5
    )


# The bar labels and the offer axis of the calculator, paired by their vertical position.
BILLS_JS = """(sel) => {
  const fig = document.querySelector(sel);
  const row = (t) => Math.round(t.getBoundingClientRect().top + t.getBoundingClientRect().height / 2);
  const axis = {};
  fig.querySelectorAll("g.role-axis-label text").forEach(t => { axis[row(t)] = t.textContent; });
  const out = {};
  fig.querySelectorAll("g.mark-text text").forEach(t => {
    const y = row(t);
    const near = Object.keys(axis).find(k => Math.abs(k - y) <= 2);
    if (near !== undefined) out[axis[near]] = t.textContent;
  });
  return out;
}"""


def check_calculator(context, base: str, width: int, presets: dict, shots) -> list[str]:
    """What is wrong with the calculator at `width` px: each preset picked, then one edit."""
    page, problems, blocked = offline_page(context, base, width, 1000)
    page.goto(f"{base}/{PAGE}", wait_until="load")
    page.wait_for_selector(f"{FIGURE} .vega-bindings select", timeout=CHART_TIMEOUT_MS)
    page.wait_for_selector(f"{FIGURE} g.mark-text text", timeout=CHART_TIMEOUT_MS)
    figure = page.locator(FIGURE)
    figure.scroll_into_view_if_needed()
    select = figure.locator(".vega-bindings select")

    def field(label: str):
        return figure.locator(".vega-bind", has_text=label).locator("input")

    def shown() -> dict[str, float]:
        return {label: float(field(label).input_value()) for label in INPUTS}

    def bills() -> dict[str, str]:
        page.wait_for_timeout(300)  # vega re-renders asynchronously
        return page.evaluate(BILLS_JS, FIGURE)

    for name, stated in presets.items():
        select.select_option(name)
        page.wait_for_timeout(300)
        values = shown()
        for label, value in stated.items():
            if values[label] != pytest.approx(value):
                problems.append(
                    f"{name}: {label!r} shows {values[label]:g}, the preset's file says {value:g}"
                )
        on_page = bills()
        if not HAND_RATES.keys() & on_page.keys():
            problems.append(f"{name}: no offer billed by hand in {on_page}")
        for offer in HAND_RATES.keys() & on_page.keys():
            if not agrees(on_page[offer], hand_bill(offer, values)):
                problems.append(
                    f"{name}: {offer} bills {on_page[offer]}, the inputs shown make it "
                    f"{hand_bill(offer, values)}"
                )
        if shots:
            figure.screenshot(path=str(shots / f"calculator-{width}-{name.replace(' ', '-')}.png"))

    # Back to the chat assistant, then the reader edits one input: the bill follows it.
    select.select_option("chat assistant")
    field("Input tokens per request").evaluate(
        "(el) => { el.value = 10000; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    values = shown()
    if values["Input tokens per request"] != 10_000:
        problems.append(f"the edited input shows {values['Input tokens per request']:g}")
    # Opus by hand: 50,000 requests x (10,000 x 0.6 x 4 + 10,000 x 0.4 x 0.2 + 400 x 20) per 1M,
    # x 30 days = 1.5 x 32,800 = $49,200.
    opus = "Claude Opus 5.5 (Anthropic)"
    edited = bills()
    if edited.get(opus) != "$49,200":
        problems.append(f"edited input: {opus} bills {edited.get(opus)}, by hand $49,200")
    if shots:
        figure.screenshot(path=str(shots / f"calculator-{width}-edited-input.png"))
    # The next pick shows that preset's values again.
    select.select_option("coding agent")
    page.wait_for_timeout(300)
    if shown() != pytest.approx(presets["coding agent"]):
        problems.append(f"after an edit, picking the coding agent shows {shown()}")
    problems += [f"tried the network: {url}" for url in blocked]
    page.close()
    return [f"{width} px: {problem}" for problem in problems]


def test_inputs_follow_the_preset_and_the_bill_the_inputs(browser, preview_site, screenshots):  # noqa: F811
    presets = preset_files()
    assert set(presets) == {"chat assistant", "coding agent", "nightly batch"}
    shots = screenshots / "calculator" if screenshots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    server = serve(preview_site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        problems = [p for w in WIDTHS for p in check_calculator(browser, base, w, presets, shots)]
    finally:
        server.shutdown()
    assert problems == [], "\n".join(problems)
