"""Canonical accelerator ids: one table of rules from every name the sources use to one slug.

The ids are shared by `gpu_hour_prices.gpu`, `gpu_specs.gpu` and `mlperf_results.accelerator`.
An id is the marketing name slugged (`h100-sxm`, `mi300x`, `tpu-v5e`, `rtx-4090`). Form-factor
suffixes follow the project's list: `h100-sxm`/`-pcie`/`-nvl`, `a100-80gb-sxm`/`-pcie`, `h200-nvl`,
used only where the name says the form; a name that does not say gets the bare id (`h100`;
`a100-sxm`, `a100-pcie` or `a100` when the A100's memory size is not given). Ids the list gives
without a suffix stay whole: `a100-40gb` (SXM4 and PCIe), `h200` (SXM, and H200 where the form is
not named), `v100` and `p100` (every form and memory size), `gh200` (96 and 144 GB).
`gpu_family` strips the suffixes for joins across sources.

Names that are not one whole accelerator return None: MIG slices, laptop/mobile parts, systems
that mix two accelerator types, empty and "N/A" names. Callers decide what to do with None.
"""

from __future__ import annotations

import re

# (pattern on the normalised name, id template). First match wins, so specific rules come first.
# Templates may use match groups (\1). The normalised name is lowercase, vendor words removed,
# punctuation turned into spaces, "80 GB" written "80gb" (see `_normalise`).
RULES: list[tuple[str, str | None]] = [
    # Not one whole accelerator: callers get None.
    (r"\bmig\b", None),  # a MIG slice of a GPU is priced per slice, not per GPU
    (r"\brtx pro 6000\b.*\bmax q\b", "rtx-pro-6000-max-q"),  # a desktop card, unlike other Max-Q
    (r"\b(laptop|mobile|max q|embedded)\b", None),
    (r"\b(x2|titan z)\b", None),  # two GPUs on one card
    (r"^(n a|unknown|)$", None),
    # NVIDIA Grace and Blackwell superchips and boards.
    (r"\bgb300\b", "gb300"),
    (r"\bgb200 nvl\d+\b", None),  # a multi-GPU board, not one accelerator
    (r"\bgb200\b", "gb200"),
    (r"\bgh200\b", "gh200"),
    (r"\bgb10\b", "gb10"),
    (r"\bb300\b", "b300"),
    (r"\bb200\b", "b200"),
    (r"\bb100\b", "b100"),
    # Hopper.
    (r"\bh200 nvl\b", "h200-nvl"),
    (r"\bh200\b", "h200"),
    (r"\bh100 nvl\b", "h100-nvl"),
    (r"\bh100\b.*\bpcie\b", "h100-pcie"),
    (r"\bh100\b.*\bsxm\d?\b", "h100-sxm"),
    (r"\bh100\b", "h100"),
    (r"\bh800\b.*\bpcie\b", "h800-pcie"),
    (r"\bh800\b.*\bsxm\d?\b", "h800-sxm"),
    (r"\bh800\b", "h800"),
    (r"\bh20\b", "h20"),
    # Ampere data centre.
    (r"\ba100\b.*\b40gb\b", "a100-40gb"),
    (r"\ba100\b(?=.*\b80gb\b)(?=.*\bsxm\d?\b)", "a100-80gb-sxm"),
    (r"\ba100\b(?=.*\b80gb\b)(?=.*\bpcie\b)", "a100-80gb-pcie"),
    (r"\ba100\b.*\b80gb\b", "a100-80gb"),
    (r"\ba100\b.*\bsxm\d?\b", "a100-sxm"),
    (r"\ba100\b.*\bpcie\b", "a100-pcie"),
    (r"\ba100\b", "a100"),
    (r"\ba800\b.*\bpcie\b", "a800-pcie"),
    (r"\ba800\b.*\bsxm\d?\b", "a800-sxm"),
    (r"\ba800\b", "a800"),
    (r"\ba10g\b", "a10g"),
    (r"\ba(2|10|16|30|40)\b", r"a\1"),
    # Ada and Blackwell data centre / workstation.
    (r"\bl40s\b", "l40s"),
    (r"\bl(2|4|20|40)\b", r"l\1"),
    # The RTX PRO 6000 Server Edition (passive, data centre) and Workstation Edition are two
    # SKUs of one chip, priced apart (vast.ai "RTX PRO 6000 S" vs "WS"): two ids.
    (r"\brtx pro 6000\b.*\b(server edition|server|s)$", "rtx-pro-6000-server"),
    (r"\brtx pro (\d{4})\b", r"rtx-pro-\1"),
    (r"\brtx (\d{4}) (sff ada|ada sff)\b", r"rtx-\1-sff-ada"),
    (r"\brtx (\d{4}e?) ada\b(?! lovelace)", r"rtx-\1-ada"),  # "RTX 4090 (Ada Lovelace)" is GeForce
    (r"\b(?:quadro|q) rtx (\d{4})\b", r"quadro-rtx-\1"),
    (r"\bquadro (gv100|p\d{4})\b", r"quadro-\1"),
    (r"\brtx a(\d{4})\b", r"a\1"),
    # GeForce and Titan.
    (r"\brtx (\d{4})s ti\b", r"rtx-\1-ti-super"),  # vast.ai "RTX 4070S Ti" = 4070 Ti SUPER
    (r"\brtx (\d{4})s\b", r"rtx-\1-super"),  # vast.ai writes "RTX 4080S" for the 4080 SUPER
    (r"\brtx (\d{4})d\b", r"rtx-\1d"),  # RTX 4090D, the China-market part
    (r"\brtx (\d{4}) (ti|super)\b", r"rtx-\1-\2"),
    (r"\brtx (\d{4})\b", r"rtx-\1"),
    (r"\bgtx (\d{3,4}) s\b", r"gtx-\1-super"),  # vast.ai "GTX 1660 S"
    (r"\bgtx (\d{3,4}) ti\b", r"gtx-\1-ti"),
    (r"\bgtx (\d{3,4})\b", r"gtx-\1"),
    (r"\btitan (rtx|v|xp|x|black)\b", r"titan-\1"),
    (r"\btitan\b", "titan"),
    # Older NVIDIA data centre.
    (r"\bv100\b", "v100"),
    (r"\bp100\b", "p100"),
    (r"\bp(4|40)\b", r"p\1"),
    (r"\bt4\b", "t4"),
    (r"\bk80\b", "k80"),
    (r"\bk40s?\b", "k40"),
    (r"\bk20x\b", "k20x"),
    (r"\bjetson agx (orin|thor)\b", r"jetson-agx-\1"),
    # AMD.
    (r"\bmi(100|210|250x|250|300a|300x|325x|350x|355x)\b", r"mi\1"),
    # Google TPUs. Trillium is the only sixth-generation TPU ("TPU v6e"), so "TPU v6" is v6e.
    (r"\btpu v6\b", "tpu-v6e"),
    (r"\btpu v(\d)([ep])?\b", r"tpu-v\1\2"),
    # Intel.
    (r"\bgaudi ?(\d)\b", r"gaudi\1"),
    (r"\bdata center gpu max (\d{4})\b", r"intel-max-\1"),
    (r"\barc pro b60 dual\b", "arc-pro-b60-dual"),
    (r"\barc pro b60\b", "arc-pro-b60"),
    # Other accelerators seen in MLPerf and the Epoch price file.
    (r"\bcloud ai 100\b.*\b(pro|ultra|standard)\b", r"cloud-ai-100-\1"),
    (r"\bspeedai240 slim\b", "speedai240-slim"),
    (r"\bspeedai240\b", "speedai240"),
    (r"\btrainium ?(\d)\b", r"trainium\1"),
    (r"\binferentia ?(\d)\b", r"inferentia\1"),
]
_COMPILED = [(re.compile(p), t) for p, t in RULES]

# Names (lowercase, before normalising) of things that are not accelerators but would match a
# rule above: AMD A-series APUs ("AMD A10-9700"), an Intel CPU called A100, a Chinese GPGPU named
# "BI-V100", and NVIDIA's pre-2010 "GeForce 7800 GTX 512" naming.
NOT_ACCELERATORS = [
    r"^amd a\d",
    r"^intel a100\b",
    r"\bbi-v100\b",
    r"geforce \d{4} gtx",
    r"\(x\d+\)",
]
_NOT_ACCELERATORS = [re.compile(p) for p in NOT_ACCELERATORS]

# Words that name a vendor or product line, not the chip; dropped before matching.
_NOISE = r"\b(nvidia|amd|google|intel|habana|tesla|geforce|instinct|radeon|virtualized|ms|maxsun)\b"


def _normalise(name: str) -> str:
    s = name.lower().replace("®", " ").replace("™", " ").replace("(r)", " ").replace("(tm)", " ")
    s = re.sub(r"(?<![a-z0-9])(\d+)\s*(gb|g)\b", r"\1gb", s)  # "80 GB", "48G" -> "80gb"; not "a10g"
    s = s.replace("maxq", "max q")
    s = re.sub(r"(\d)ada\b", r"\1 ada", s)  # vast.ai "RTX 6000Ada"
    s = re.sub(r"\bpcle\b", "pcie", s)  # typo in the Epoch chip data ("L2 PCle")
    s = re.sub(r"[\s_\-/,.()\[\]]+", " ", s)
    s = re.sub(_NOISE, " ", s)
    return re.sub(r"\s+", " ", s).strip()


def canonical_gpu(name: str | None) -> str | None:
    """Canonical accelerator id of a source's name, or None for names the rules do not know."""
    if name is None:
        return None
    if any(p.search(name.lower()) for p in _NOT_ACCELERATORS):
        return None
    norm = _normalise(name)
    for pattern, template in _COMPILED:
        m = pattern.search(norm)
        if m:
            return None if template is None else m.expand(template).replace(" ", "-")
    return None


_FORM_SUFFIX = re.compile(r"-(sxm|pcie|nvl)$")


def gpu_family(gpu: str) -> str:
    """The id without its form-factor suffix (`h100-sxm` -> `h100`, `a100-80gb-pcie` -> `a100`).

    For joining sources that name the form factor with sources that do not.
    """
    base = _FORM_SUFFIX.sub("", gpu)
    return re.sub(r"^(a100|a800)-(40gb|80gb)$", r"\1", base)
