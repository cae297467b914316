-- wrk -s scripts/wrk-pipeline.lua URL -- DEPTH: each write carries DEPTH requests (HTTP/1.1
-- pipelining, default 16); wrk counts every response, so Requests/sec is responses per second.
init = function(args)
  local depth = tonumber(args[1]) or 16
  local batch = {}
  for i = 1, depth do
    batch[i] = wrk.format(nil, nil, nil, nil)
  end
  req = table.concat(batch)
end

request = function()
  return req
end
