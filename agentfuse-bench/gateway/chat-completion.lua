-- wrk script of the gateway benchmark: every request is the same OpenAI chat completion, the
-- small one below, or the body in the file BENCH_BODY_FILE (the 150 KB conversation, the stream),
-- or one of the bodies of BENCH_BODY_FILES in turn (many sessions' conversations).
-- Extra headers come from the environment (Portkey needs its routing headers):
--   BENCH_HEADERS="name: value|name: value"
-- At the end it prints one machine-readable line (latencies in microseconds):
--   RESULT requests=N duration_us=N p50_us=N p99_us=N non2xx=N connect=N read=N write=N timeout=N

wrk.method = "POST"
wrk.body = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}'
local body_file = os.getenv("BENCH_BODY_FILE")
if body_file and body_file ~= "" then
  local file = assert(io.open(body_file, "rb"))
  wrk.body = file:read("*a")
  file:close()
end
wrk.headers["Content-Type"] = "application/json"

-- BENCH_BODY_FILES: several bodies (file names apart by spaces), sent in turn by each connection's
-- thread: many agents' conversations at once, each resent.
local bodies = {}
for name in string.gmatch(os.getenv("BENCH_BODY_FILES") or "", "%S+") do
  local file = assert(io.open(name, "rb"))
  bodies[#bodies + 1] = file:read("*a")
  file:close()
end
if #bodies > 0 then
  local turn = 0
  request = function()
    turn = turn % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[turn])
  end
end

local extra = os.getenv("BENCH_HEADERS")
if extra then
  for pair in string.gmatch(extra, "[^|]+") do
    local name, value = string.match(pair, "^%s*([^:]+):%s*(.-)%s*$")
    if name then
      wrk.headers[name] = value
    end
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
