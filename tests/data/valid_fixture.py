"""A small valid data folder, written table by table, and ways to edit one cell of it.

Shared by the validation tests (`test_validate.py`, `test_malformed.py`) and by
`list_malformed.py`. Loaded by path (`load_fixture()` in those files): tests here are not a
package. The rows are kept by column name and written in the schema's column order, so a column
the schema gains later (optional) is written empty and the fixture stays valid.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from analysis.data.schema import TABLE_ORDER, TABLES

VALID = {
    "sources": [
        "source_id,title,publisher,url,licence,retrieved,notes",
        "epoch-llm-price-trends,LLM inference price trends,Epoch AI,https://github.com/epoch-research/llm-benchmark-efficiency,none stated,2025-03-13,",
        "fred-cpi-datasets,CPI-U,datasets/cpi-us,https://github.com/datasets/cpi-us,PDDL-1.0,2026-07-01,",
    ],
    "models": [
        "model_id,name,organization,release_date,open_weights,parameters_b,active_parameters_b,reasoning,aliases,resolved,info_source_id",
        "gpt-4o,GPT-4o,OpenAI,2024-05-13,false,,,false,GPT-4o,true,epoch-llm-price-trends",
        "llama-3.1-70b,Llama 3.1 70B,Meta,2024-07-23,true,70,70,false,Llama 3.1 70B,true,epoch-llm-price-trends",
    ],
    "token_prices": [
        "model_id,provider,first_party,date,last_seen,input_usd_per_mtok,output_usd_per_mtok,cached_input_usd_per_mtok,batch_input_usd_per_mtok,batch_output_usd_per_mtok,blended_usd_per_mtok,blend,currency,input_original_per_mtok,output_original_per_mtok,blended_original_per_mtok,price_kind,context_tier,quantization,source_model_name,source_id,source_locator",
        "gpt-4o,openai,true,2024-08-06,,2.5,10,1.25,1.25,5,,,USD,2.5,10,,list,,,GPT-4o,epoch-llm-price-trends,x.csv@abc#row 1",
        "llama-3.1-70b,together,false,2024-09-01,,0.88,0.88,,,,,,USD,0.88,0.88,,list,,fp8,Llama 3.1 70B,epoch-llm-price-trends,x.csv@abc#row 2",
    ],
    "gpu_hour_prices": [
        "gpu,source_gpu_name,provider,date,pricing,usd_per_gpu_hour,statistic,region,gpus_per_instance,source_id,source_locator",
        "h100-sxm,H100 SXM5,lambda,2024-01-10,on-demand,2.49,quote,us-east,8,epoch-llm-price-trends,x.csv@abc#row 3",
    ],
    "benchmark_scores": [
        "model_id,benchmark,score,unit,date,source_model_name,source_id,source_locator",
        "gpt-4o,mmlu,88.7,percent,2024-05-13,GPT-4o,epoch-llm-price-trends,x.csv@abc#row 1",
    ],
    "mlperf_results": [
        "round,date,submitter,system,platform,accelerator,source_accelerator_name,accelerator_count,benchmark_model,model_run,scenario,category,division,tokens_per_s,source_id,source_locator",
        "v4.1,2024-08-28,NVIDIA,DGX-H100,DGX-H100_H100-SXM-80GBx8_TRT,h100-sxm,NVIDIA H100-SXM-80GB,8,llama2-70b-99,llama2-70b-99,Offline,available,closed,24525,epoch-llm-price-trends,x.json@abc#row 1",
    ],
    "gpu_specs": [
        "gpu,name,manufacturer,release_date,memory_gb,memory_bandwidth_tb_per_s,fp32_tflop_per_s,tf32_tflop_per_s,fp16_tflop_per_s,fp8_tflop_per_s,int8_tops,tdp_w,release_price_usd,source_id,source_locator",
        "h100-sxm,NVIDIA H100 SXM5 80GB,NVIDIA,2022-09-20,80,3.35,66.9,494.7,989.4,1978.9,1978.9,700,,epoch-llm-price-trends,x.csv@abc#row 9",
    ],
    "fx_rates": [
        "currency,month,per_usd,source_id,source_locator",
        "CNY,2025-01-01,7.2,fred-cpi-datasets,monthly.csv@abc#row 1",
    ],
    "cpi": [
        "month,cpi_u,source_id,source_locator",
        "2025-01-01,317.671,fred-cpi-datasets,cpiai.csv@abc#row 1",
        "2025-02-01,319.082,fred-cpi-datasets,cpiai.csv@abc#row 2",
    ],
    "claims": [
        "claim_id,claim,subject,value,value_high,unit,claim_date,digest_file,checkable_with,source_id,source_locator",
        "h100-price,H100 at $2.85-3.50/hr,H100 price,2.85,3.5,USD per GPU-hour,2026-09-27,000.txt,gpu_hour_prices,epoch-llm-price-trends,seeds/000.txt#line 19",
    ],
    # Tables of the 2026-12 sources: one valid row each, required columns and a few others.
    "inference_benchmarks": [
        "benchmark,run_id,benchmark_model,source_model_name,accelerator,source_hw,framework,precision,spec_decoding,disaggregated,multinode,isl_tokens,osl_tokens,concurrency,tokens_per_s_per_gpu,source_id,source_locator",
        "inferencemax,123456,gpt-oss-120b,openai/gpt-oss-120b,b200,b200,vllm,fp4,none,false,false,1024,1024,64,5120.5,epoch-llm-price-trends,x.json@abc#row 1",
    ],
    "tco_assumptions": [
        "gpu,source_gpu_name,date,ownership,usd_per_gpu_hour,power_kw_per_gpu,provisional,source_field,source_id,source_locator",
        "h100-sxm,h100,2026-03-18,neocloud,1.69,1.73,false,costn,epoch-llm-price-trends,x.ts@abc#h100",
    ],
    "tou_windows": [
        "provider,tariff,start_hour_utc,end_hour_utc,weekdays,local_timezone,start_hour_local,end_hour_local,date,effective_from_utc,models,observed,source_id,source_locator",
        "deepseek,peak,1,4,mon;tue;wed;thu;fri,Asia/Shanghai,9,12,2026-08-16,2026-08-16T16:00:00Z,deepseek-v4-pro,2026-09-01,epoch-llm-price-trends,x.json@abc#peak_hours_utc[0]",
    ],
    "mlperf_training_systems": [
        "round,date,submitter,system,division,accelerator,source_accelerator_name,accelerators_per_node,node_count,accelerator_count,source_id,source_locator",
        "v5.0,2025-06-04,NVIDIA,dgx-b200,closed,b200,NVIDIA B200,8,64,512,epoch-llm-price-trends,x.json@abc",
    ],
    "mlperf_training_results": [
        "round,date,submitter,system,benchmark,run,accelerator,accelerator_count,run_minutes,status,source_id,source_locator",
        "v5.0,2025-06-04,NVIDIA,dgx-b200,llama31_405b,result_0,b200,512,120.5,success,epoch-llm-price-trends,x.txt@abc",
    ],
    "aa_snapshots": [
        "model_id,snapshot_date,aa_model_id,aa_slug,source_model_name,intelligence_index,input_usd_per_mtok,output_usd_per_mtok,source_id,source_locator",
        "gpt-4o,2026-04-10,abc-123,gpt-4o,GPT-4o,30.5,2.5,10,epoch-llm-price-trends,x.json@abc#models[0]",
    ],
    "aa_index_runs": [
        "snapshot_date,aa_model_id,source_model_name,input_tokens,output_tokens,answer_tokens,reasoning_tokens,source_id,source_locator",
        "2026-04-10,abc-123,GPT-4o,1000,300,100,200,epoch-llm-price-trends,x.json@abc#models[0]",
    ],
    # The curated releases' link from each row to every source row behind it.
    "observations": [
        "table,row_id,source_id,source_name,source_locator,date,last_seen",
        "token_prices,tp-0123456789ab,epoch-llm-price-trends,GPT-4o,x.csv@abc#row 1,2024-05-13,",
    ],
}


def rows(table: str) -> list[dict[str, str]]:
    """The fixture's rows of one table, by column name."""
    return list(csv.DictReader(io.StringIO("\n".join(VALID[table]) + "\n")))


def csv_text(table: str, records: list[dict[str, str]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    cols = TABLES[table].column_names
    w.writerow(cols)
    for r in records:
        w.writerow([r.get(c, "") for c in cols])
    return out.getvalue()


def write_valid(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for table in TABLE_ORDER:
        (folder / f"{table}.csv").write_text(csv_text(table, rows(table)), encoding="utf-8")
    return folder


def replace_cell(folder: Path, table: str, row: int, column: str, value: str) -> None:
    """Set one cell (row is the 1-based data row) of a fixture CSV, quoting it where CSV must."""
    path = folder / f"{table}.csv"
    records = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    records[row - 1][column] = value
    path.write_text(csv_text(table, records), encoding="utf-8")


def replace_raw(folder: Path, table: str, row: int, column: str, text: str) -> None:
    """Put `text` as it is (no quoting) into one cell: for edits that break the CSV itself."""
    path = folder / f"{table}.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split(",")
    cells = lines[row].split(",")
    cells[header.index(column)] = text
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")
