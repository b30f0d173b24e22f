"""One name per provider: every provider slug an importer writes, mapped to one canonical id.

Sources name the same seller differently (`moonshot-ai` in simonw's files, `moonshotai` in
genai-prices and OpenRouter, `moonshot` in LiteLLM), and OpenRouter splits a seller's endpoints
into routes (`google-vertex/europe`, `amazon-bedrock/global`, `anthropic/2`, written
`google-vertex-europe` etc. by its importer). `TABLE` below is the one place that says which
slug is which seller; `analysis/data/build.py` applies it to every token_prices row once, after the
importers and before the first-party flags, so the released data carries canonical ids only.
The source's own spelling stays visible through `source_locator` (the row, key or file it names).

The book compares sellers, so the canonical id is the seller. Each OpenRouter route was judged
on the 2026-08-08 endpoints file (prices of the same model on the route and on the seller's plain
route):

- Another spelling, or the same offer through another door: the seller's id. This covers
  duplicate accounts (`anthropic/2`), zero-data-retention twins at the same price (`xai/zdr`)
  and regional endpoints (`google-vertex/europe`, `azure/eu`, `amazon-bedrock/global`). A
  regional endpoint can cost ~10% more than the global one; the OpenRouter importer already keeps
  the cheapest region where regions share one route (Bedrock eu-west-1 vs us-east-1), and
  `canonical_rows` does the same where they come as separate routes, so regions are treated
  alike however the source spells them.
- A separate offer, with its own price list for the same model: a speed or precision tier
  (DeepInfra Turbo, the `fast` and `highspeed` tiers), dedicated capacity, or OpenAI's default
  tier beside a half-price route. These keep an id of their own, `<seller>-<tier>`, so both
  prices stay in the data; `seller()` gives the seller, for analyses that compare sellers (one
  price per seller) and for the first-party flag. They are the exception to "the id is the
  seller", and each one says why in the table.
- Hugging Face's router (`huggingface-novita` in genai-prices) forwards a request to the named
  provider, but genai-prices keeps a price list for it that can differ from the provider's own
  file and is dated differently: a separate offer whose seller is the provider served.

Folding two routes into one id is safe only where a source prices them on the same dates: a
route dated apart from its twin would read as a price change of the seller. Where a source
lists two routes of one seller for the same model on different dates with their own prices
(genai-prices' `zai` and `zhipuai`, the Hugging Face routes), they are separate offers; a test
on the raw sources checks that no folded route does so.

Unknown slugs map to themselves, so a new source works before the table knows it; the tests list
the slugs of the released data that the table does not cover (none may be missing).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class Entry:
    slug: str  # as an importer writes it
    provider: str  # canonical id
    why: str = ""  # where it is not obvious
    seller: str | None = None  # only for a separate offer: the seller whose offer it is


CLAUDE_ON_AWS = (
    "'Claude Platform on AWS' (the route's display name on OpenRouter): Anthropic's Claude "
    "Platform reached through AWS, at Anthropic's own prices on every model it lists"
)
REGION = "regional endpoint of the same offer; the cheapest route of a seller is kept"
FAST = "speed tier with its own, higher price for the same model"
HF = (
    "Hugging Face's router to {}: its own price list in genai-prices (Groq's gpt-oss-20b 0.10/0.50 "
    "there, 0.075/0.30 in Groq's own file), so a separate offer; the seller is the provider served"
)

TABLE: list[Entry] = [
    Entry("01-ai", "01-ai"),
    Entry("ai21", "ai21"),
    Entry("aion-labs", "aion-labs"),
    Entry("akashml", "akashml"),
    Entry("aleph-alpha", "aleph-alpha"),
    Entry("alibaba", "alibaba"),
    Entry("alibaba-fast", "alibaba-fast", FAST + " (GLM 5.2, 2026-08-08)", seller="alibaba"),
    Entry(
        "alibaba-opensource",
        "alibaba",
        "Alibaba Cloud's route for open-weights Qwen builds; the only Alibaba endpoint of its model",
    ),
    Entry(
        "amazon",
        "bedrock",
        "simonw's amazon.json (Nova, Bedrock's prices) and LiteLLM's amazon_nova: Amazon sells "
        "its Nova models itself; `bedrock` is Amazon's id throughout",
    ),
    Entry("ambient", "ambient"),
    Entry("anthropic", "anthropic"),
    Entry(
        "anthropic-2",
        "anthropic",
        "second Anthropic route on OpenRouter ('Claude Platform on AWS'), same prices",
    ),
    Entry("anthropic-claude-on-aws", "anthropic", CLAUDE_ON_AWS),
    Entry("anyscale", "anyscale"),
    Entry("arcee-ai", "arcee-ai"),
    Entry("atlas-cloud", "atlas-cloud"),
    Entry("avian", "avian"),
    Entry("azure", "azure"),
    Entry(
        "azure-ai",
        "azure",
        "LiteLLM's azure_ai: Azure AI Foundry's models, sold by Microsoft Azure like Azure OpenAI",
    ),
    Entry("azure-eu", "azure", REGION),
    Entry("baidu", "baidu"),
    Entry("baseten", "baseten"),
    Entry("baseten-fast", "baseten-fast", FAST + " (GLM 5.2, 2026-08-08)", seller="baseten"),
    Entry("bedrock", "bedrock", "Amazon Bedrock (`amazon-bedrock` on OpenRouter, `aws` in genai)"),
    Entry("bedrock-claude-on-aws", "anthropic", CLAUDE_ON_AWS),
    Entry("bedrock-global", "bedrock", REGION + " (cross-region inference)"),
    Entry("bedrock-us-east-1", "bedrock", REGION),
    Entry("cerebras", "cerebras"),
    Entry("chutes", "chutes"),
    Entry("claude-on-aws", "anthropic", CLAUDE_ON_AWS),
    Entry("cloudflare", "cloudflare"),
    Entry(
        "cloudflare-fast", "cloudflare-fast", FAST + " (GLM 5.2, 2026-08-08)", seller="cloudflare"
    ),
    Entry("cohere", "cohere"),
    Entry("coreweave", "coreweave"),
    Entry("crusoe", "crusoe"),
    Entry("darkbloom", "darkbloom"),
    Entry("dashscope", "alibaba", "DashScope is Alibaba Cloud's model API (Model Studio)"),
    Entry("databricks", "databricks"),
    Entry("decart", "decart"),
    Entry("deepinfra", "deepinfra"),
    Entry(
        "deepinfra-base",
        "deepinfra",
        "DeepInfra's base (standard) route; the only DeepInfra endpoint of its model",
    ),
    Entry(
        "deepinfra-turbo",
        "deepinfra-turbo",
        "DeepInfra Turbo: a tier with its own prices and builds (Gemma 4 31B fp4 and cheaper, "
        "MiniMax M2.7 and gpt-oss-120b dearer than plain DeepInfra, 2026-08-08)",
        seller="deepinfra",
    ),
    Entry("deepseek", "deepseek"),
    Entry("digitalocean", "digitalocean"),
    Entry("doubleword", "doubleword"),
    Entry("fal", "fal"),
    Entry("featherless", "featherless"),
    Entry("fireworks", "fireworks"),
    Entry("fireworks-ai", "fireworks", "Fireworks AI's own id (LiteLLM, Hugging Face)"),
    Entry(
        "fireworks-fast",
        "fireworks-fast",
        FAST + " (Kimi K3, GLM 5.2, 2026-08-08)",
        seller="fireworks",
    ),
    Entry("friendli", "friendliai", "FriendliAI (OpenRouter writes 'Friendli')"),
    Entry("friendliai", "friendliai"),
    Entry("github-copilot", "github-copilot"),
    Entry("gmi", "gmicloud", "GMI Cloud (LiteLLM's gmi)"),
    Entry("gmicloud", "gmicloud"),
    Entry("google", "google", "Google's Gemini API (AI Studio; LiteLLM's gemini and palm)"),
    Entry("google-ai-studio", "google", "Google AI Studio, Google's Gemini API"),
    Entry(
        "google-vertex",
        "google",
        "Vertex AI: Google Cloud sells Gemini (same prices as AI Studio) and partner models",
    ),
    Entry("google-vertex-eu", "google", REGION),
    Entry("google-vertex-europe", "google", REGION),
    Entry("google-vertex-global", "google", REGION),
    Entry("google-vertex-us", "google", REGION),
    Entry("google-vertex-us-east5", "google", REGION),
    Entry(
        "gradient-ai", "digitalocean", "LiteLLM's gradient_ai: DigitalOcean's Gradient AI platform"
    ),
    Entry("groq", "groq"),
    Entry("huggingface-cerebras", "huggingface-cerebras", HF.format("Cerebras"), seller="cerebras"),
    Entry(
        "huggingface-fireworks-ai",
        "huggingface-fireworks",
        HF.format("Fireworks"),
        seller="fireworks",
    ),
    Entry("huggingface-groq", "huggingface-groq", HF.format("Groq"), seller="groq"),
    Entry(
        "huggingface-hyperbolic",
        "huggingface-hyperbolic",
        HF.format("Hyperbolic"),
        seller="hyperbolic",
    ),
    Entry("huggingface-nebius", "huggingface-nebius", HF.format("Nebius"), seller="nebius"),
    Entry("huggingface-novita", "huggingface-novita", HF.format("Novita"), seller="novita"),
    Entry("huggingface-nscale", "huggingface-nscale", HF.format("Nscale"), seller="nscale"),
    Entry("huggingface-ovhcloud", "huggingface-ovhcloud", HF.format("OVHcloud"), seller="ovhcloud"),
    Entry("huggingface-publicai", "huggingface-publicai", HF.format("PublicAI"), seller="publicai"),
    Entry(
        "huggingface-sambanova", "huggingface-sambanova", HF.format("SambaNova"), seller="sambanova"
    ),
    Entry("huggingface-together", "huggingface-together", HF.format("Together"), seller="together"),
    Entry("hyperbolic", "hyperbolic"),
    Entry("inception", "inception"),
    Entry("inceptron", "inceptron", "Inceptron, not Inception Labs"),
    Entry("io-net", "io-net"),
    Entry("ionstream", "ionstream"),
    Entry("lambda", "lambda"),
    Entry("libertai", "libertai"),
    Entry("llamagate", "llamagate"),
    Entry("mancer", "mancer"),
    Entry("mara", "mara"),
    Entry("meta", "meta", "Meta's own API (LiteLLM's meta_llama, OpenRouter's meta)"),
    Entry("meta-ai", "meta", "simonw's meta-ai.json: Meta's own API"),
    Entry("minimax", "minimax"),
    Entry(
        "minimax-highspeed",
        "minimax-highspeed",
        FAST + " (MiniMax M2.1 to M2.7, 2026-08-08)",
        seller="minimax",
    ),
    Entry("mistral", "mistral"),
    Entry("modal", "modal"),
    Entry("modelrun", "modelrun"),
    Entry("moonshot", "moonshot"),
    Entry("moonshot-ai", "moonshot", "simonw's moonshot-ai.json"),
    Entry("moonshotai", "moonshot", "genai-prices' and OpenRouter's id for Moonshot AI"),
    Entry(
        "moonshotai-highspeed",
        "moonshot-highspeed",
        FAST + " (Kimi K2.7 Code, 2026-08-08)",
        seller="moonshot",
    ),
    Entry("morph", "morph"),
    Entry("morph-fast", "morph-fast", FAST + " (Kimi K3, 2026-08-08)", seller="morph"),
    Entry("nebius", "nebius"),
    Entry(
        "nebius-base",
        "nebius",
        "Nebius Token Factory's base (standard) flavour; the only Nebius endpoint of its model",
    ),
    Entry("nex-agi", "nex-agi"),
    Entry("nextbit", "nextbit"),
    Entry("nlp-cloud", "nlp-cloud"),
    Entry("novita", "novita"),
    Entry("nscale", "nscale"),
    Entry("nvidia", "nvidia"),
    Entry("oci", "oci", "Oracle Cloud Infrastructure's generative AI service"),
    Entry("open-inference", "open-inference"),
    Entry("openai", "openai"),
    Entry(
        "openai-default",
        "openai-default",
        "OpenAI's default tier on OpenRouter: GPT-5 and GPT-5.1 at 1.25/10 where the plain openai "
        "route lists 0.625/5 (2026-08-08); two price lists",
        seller="openai",
    ),
    Entry("openrouter", "openrouter", "OpenRouter's own listing (an aggregator)"),
    Entry("ovhcloud", "ovhcloud"),
    Entry("parasail", "parasail"),
    Entry("perceptron", "perceptron"),
    Entry("perplexity", "perplexity"),
    Entry("phala", "phala"),
    Entry("pinstripes", "pinstripes"),
    Entry("poolside", "poolside"),
    Entry("publicai", "publicai"),
    Entry("qwen", "alibaba", "simonw's qwen.json: Qwen's API is Alibaba Cloud Model Studio"),
    Entry("reka", "reka"),
    Entry("relace", "relace"),
    Entry("replicate", "replicate"),
    Entry("sail-research", "sail-research"),
    Entry("sakana", "sakana"),
    Entry("sambanova", "sambanova"),
    Entry(
        "sambanova-minimax-m2.7-dedicated",
        "sambanova-dedicated",
        "SambaNova Dedicated: dedicated capacity at its own price (MiniMax M2.7 0.30/1.50 vs "
        "0.60/2.40 shared, 2026-08-08)",
        seller="sambanova",
    ),
    Entry(
        "sambanova-turbo",
        "sambanova-turbo",
        "SambaNova Turbo: a named tier with its own endpoint (Llama 3.3 70B, bf16)",
        seller="sambanova",
    ),
    Entry("scaleway", "scaleway"),
    Entry("seed", "seed", "ByteDance Seed"),
    Entry("siliconflow", "siliconflow"),
    Entry("snowflake", "snowflake"),
    Entry("stepfun", "stepfun"),
    Entry("streamlake", "streamlake", "Kuaishou's StreamLake"),
    Entry("tencent", "tencent"),
    Entry("tensormesh", "tensormesh"),
    Entry("together", "together"),
    Entry("together-ai", "together", "Together AI's own id (LiteLLM, Hugging Face)"),
    Entry("unspecified", "unspecified", "the source does not say who sells the tokens"),
    Entry("upstage", "upstage"),
    Entry(
        "v0",
        "vercel",
        "v0 is Vercel's model API; Vercel also runs the AI Gateway (`vercel`)",
    ),
    Entry("venice", "venice"),
    Entry("vercel", "vercel", "Vercel AI Gateway (an aggregator) and Vercel's own v0 models"),
    Entry("vertex-ai", "google", "LiteLLM's vertex_ai*: Google Cloud's Vertex AI"),
    Entry("wafer", "wafer"),
    Entry("wafer-fast", "wafer-fast", FAST + " (Kimi K3, GLM 5.2, 2026-08-08)", seller="wafer"),
    Entry("wandb", "wandb", "Weights & Biases Inference"),
    Entry("watsonx", "watsonx", "IBM watsonx"),
    Entry("xai", "xai"),
    Entry("xai-zdr", "xai", "xAI's zero-data-retention route, same prices"),
    Entry("xiaomi", "xiaomi"),
    Entry("z-ai", "zhipu", "OpenRouter's id for Z.ai, Zhipu AI's international platform"),
    Entry("zai", "zhipu", "Z.ai (genai-prices, LiteLLM), Zhipu AI's international platform"),
    Entry("zhipu", "zhipu", "Zhipu AI (Z.ai; lmarena's and the digests' id)"),
    Entry(
        "zhipuai",
        "zhipu-bigmodel",
        "genai-prices' zhipuai: bigmodel.cn, Zhipu's China price list (CNY, converted by the "
        "source), beside its zai file (z.ai, USD) for the same models (GLM-5.2 1.10/3.86 vs "
        "1.40/4.40)",
        seller="zhipu",
    ),
]

CANONICAL: dict[str, str] = {e.slug: e.provider for e in TABLE}
SELLERS: dict[str, str] = {e.provider: e.seller for e in TABLE if e.seller}


def canonical_provider(slug: str) -> str:
    """The canonical id of a provider slug; a slug the table does not know is its own id."""
    return CANONICAL.get(slug, slug)


def seller(provider: str) -> str:
    """The seller behind a provider slug or id: a separate offer's seller, else the canonical id."""
    p = canonical_provider(provider)
    return SELLERS.get(p, p)


def canonical_provider_expr(column: str | pl.Expr = "provider") -> pl.Expr:
    """`canonical_provider` as a polars expression (keeps the column's name)."""
    col = pl.col(column) if isinstance(column, str) else column
    return col.replace(CANONICAL)


def seller_expr(column: str | pl.Expr = "provider") -> pl.Expr:
    """`seller` as a polars expression (keeps the column's name)."""
    return canonical_provider_expr(column).replace(SELLERS)


def table() -> pl.DataFrame:
    """The table as a frame: slug, provider, seller, why."""
    return pl.DataFrame(
        {
            "slug": [e.slug for e in TABLE],
            "provider": [e.provider for e in TABLE],
            "seller": [e.seller or e.provider for e in TABLE],
            "why": [e.why or None for e in TABLE],
        }
    )


# Rows are one price of one model in one source; several routes of one seller can price it.
ROW_KEY = ["source_id", "source_model_name", "model_hint", "provider", "date", "price_kind"]
PRICE_ORDER = [
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
# Between routes at the same price, the one that also states these prices is kept.
OTHER_PRICES = [
    "cached_input_usd_per_mtok",
    "batch_input_usd_per_mtok",
    "batch_output_usd_per_mtok",
]


def canonical_rows(token_prices: pl.DataFrame) -> pl.DataFrame:
    """token_prices rows (as the importers give them) with canonical provider ids.

    Where routes that the table folds into one id price the same model in the same source on
    the same date (OpenRouter's `google-vertex` and `google-vertex-europe`), the cheapest row is
    kept (input, then output price), as the OpenRouter importer does for regions within a route;
    between equal prices, the row that also gives cached and batch prices, then the first slug.
    Two rows of one source slug sharing a key are left alone: that is an importer's duplicate,
    which the build reports.
    """
    if token_prices.height == 0 or "provider" not in token_prices.columns:
        return token_prices
    key = [c for c in ROW_KEY if c in token_prices.columns]
    order = [c for c in PRICE_ORDER if c in token_prices.columns]
    other = [c for c in OTHER_PRICES if c in token_prices.columns]
    df = token_prices.with_row_index("_row").with_columns(
        pl.col("provider").alias("_slug"), canonical_provider_expr("provider")
    )
    silent = pl.sum_horizontal([pl.col(c).is_null() for c in other]) if other else pl.lit(0)
    cheapest = (
        df.with_columns(silent.alias("_silent"))
        .sort([*order, "_silent", "_slug", "_row"], nulls_last=True)
        .group_by(key, maintain_order=True)
        .agg(pl.col("_slug").first())
    )
    kept = df.join(cheapest, on=[*key, "_slug"], how="semi", nulls_equal=True)
    return kept.sort("_row").drop("_row", "_slug")
