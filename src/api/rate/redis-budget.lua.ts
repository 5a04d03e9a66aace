// The Lua script that keeps one request group's rate budget in Redis (redis-store.ts runs it
// with EVAL). A file of its own so that it can be read, and tested against the same case
// table as budget.ts (test/http/redis-budget-lua.test.ts), apart from the Redis plumbing.
// A TypeScript string rather than a .lua file: the tsc build and the bundle carry it as is.

export const BUDGET_SCRIPT = `
-- The rate budget of one request group, kept in Redis. The same arithmetic as
-- src/api/rate/budget.ts, on the same state shape, run atomically by the server with its
-- own clock (TIME), so machines whose clocks disagree still share one sliding window.
--
-- KEYS[1]  the group's state (JSON)
-- ARGV     op, limit, windowMs, ownerKeyPrefix, owner, leaseMs, a1, a2
--   reserve  a1 = maxWaitMs (-1: none)            -> {reserved 0|1, waitMs, slotAt}
--   settle   a1 = slotAt, a2 = startedLateMs       -> {sentAt}
--   release  a1 = slotAt                          -> {}
--   note     a1 = sentAt, a2 = retryAfterMs (-1)  -> {shrunk 0|1, effectiveLimit}
--   snapshot                                      -> state JSON
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local op = ARGV[1]
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local ownerPrefix = ARGV[4]
local owner = ARGV[5]
local lease = tonumber(ARGV[6])
local a1 = tonumber(ARGV[7])
local a2 = tonumber(ARGV[8])

local margin = math.max(150, math.ceil(window * 0.015)) -- safetyMarginMs
local horizon = window + margin
local MAX_ARRIVAL_DELAY_MS = 1000
local STRIKES_TO_LOWER = 3
local MAX_FAILED_PROBES = 3

local s = nil
local raw = redis.call('GET', KEYS[1])
if raw then
  local ok, decoded = pcall(cjson.decode, raw)
  if ok and type(decoded) == 'table' then s = decoded end
end
if s == nil then s = {} end
-- cjson turns an empty array into {}; both read as an empty table.
s.sends = s.sends or {}
s.pending = s.pending or {}
s.strikes = s.strikes or {}
s.reduced = tonumber(s.reduced) or 0 -- 0: the configured limit holds
s.adjustedAt = tonumber(s.adjustedAt) or 0
s.failed = tonumber(s.failed) or 0
s.blockedUntil = tonumber(s.blockedUntil) or 0

-- This run is alive: its reservations stay (see releaseAbandoned).
if owner ~= '' then redis.call('SET', ownerPrefix .. owner, '1', 'PX', lease) end

local function removeOne(list, value)
  for i = 1, #list do
    if list[i] == value then
      table.remove(list, i)
      return true
    end
  end
  return false
end

local function dropPending(at)
  for i = 1, #s.pending do
    if s.pending[i].at == at then
      table.remove(s.pending, i)
      return
    end
  end
end

local function record(at)
  local i = #s.sends
  while i > 0 and s.sends[i] > at do i = i - 1 end
  table.insert(s.sends, i + 1, at)
end

-- A run that died (its lease expired) never sends the slots it had queued for later.
local function releaseAbandoned()
  local keep = {}
  for _, p in ipairs(s.pending) do
    if redis.call('EXISTS', ownerPrefix .. p.owner) == 1 then
      table.insert(keep, p)
    elseif p.at > now then
      removeOne(s.sends, p.at)
    end
  end
  s.pending = keep
end

local function prune()
  local keepAfter = now - 2 * horizon
  while #s.sends > 0 and s.sends[1] <= keepAfter do table.remove(s.sends, 1) end
  local keep = {}
  for _, p in ipairs(s.pending) do
    if p.at > keepAfter then table.insert(keep, p) end
  end
  s.pending = keep
end

local function recover()
  if s.reduced == 0 then return end
  local quiet = window * 2 ^ s.failed
  local steps = math.floor((now - s.adjustedAt) / quiet)
  if steps < 1 then return end
  local raised = s.reduced + steps * math.max(1, math.ceil(limit / 10))
  if raised >= limit then s.reduced = 0 else s.reduced = raised end
  s.adjustedAt = s.adjustedAt + steps * quiet
  if s.reduced == 0 then s.failed = 0 end
end

local function effectiveLimit()
  recover()
  if s.reduced == 0 then return limit end
  return math.min(limit, s.reduced)
end

local function nextSlot()
  prune()
  local lim = effectiveLimit()
  local n = #s.sends
  local last = now
  if n > 0 then last = s.sends[n] end
  local slot = math.max(now, math.min(s.blockedUntil, now + window), last)
  local blocking = s.sends[n - lim + 1]
  if n - lim + 1 >= 1 and blocking ~= nil then slot = math.max(slot, blocking + window + margin) end
  return slot
end

releaseAbandoned()
local result

if op == 'reserve' then
  local slot = nextSlot()
  local wait = slot - now
  if a1 >= 0 and wait > a1 then
    result = { 0, wait, slot }
  else
    record(slot)
    table.insert(s.pending, { at = slot, owner = owner })
    result = { 1, wait, slot }
  end
elseif op == 'settle' then
  local at = math.max(a1, math.min(now, a1 + math.max(0, a2 or 0) + MAX_ARRIVAL_DELAY_MS))
  removeOne(s.sends, a1)
  dropPending(a1)
  record(at)
  result = { at }
elseif op == 'release' then
  removeOne(s.sends, a1)
  dropPending(a1)
  result = {}
elseif op == 'note' then
  removeOne(s.sends, a1)
  dropPending(a1)
  if a2 > 0 then s.blockedUntil = math.max(s.blockedUntil, now + math.min(a2, window)) end
  local current = effectiveLimit()
  local accepted = 0
  for _, at in ipairs(s.sends) do
    if at > a1 - horizon and at <= a1 then accepted = accepted + 1 end
  end
  if accepted >= current then
    result = { 0, current }
  else
    local strikes = {}
    for _, strike in ipairs(s.strikes) do
      if strike.at > now - horizon then table.insert(strikes, strike) end
    end
    table.insert(strikes, { at = now, accepted = accepted })
    s.strikes = strikes
    if #strikes < STRIKES_TO_LOWER then
      result = { 0, current }
    else
      local lowered = 1
      for _, strike in ipairs(strikes) do lowered = math.max(lowered, strike.accepted) end
      s.strikes = {}
      if lowered >= current then
        result = { 0, current }
      else
        if s.reduced == 0 then s.failed = 0 else s.failed = math.min(MAX_FAILED_PROBES, s.failed + 1) end
        s.reduced = lowered
        s.adjustedAt = now
        result = { 1, lowered }
      end
    end
  end
elseif op == 'snapshot' then
  prune()
  recover()
else
  return redis.error_reply('unknown op ' .. tostring(op))
end

-- Idle budgets clean themselves up; a day outlasts every window and recovery step.
local encoded = cjson.encode(s)
redis.call('SET', KEYS[1], encoded, 'PX', 86400000)
if op == 'snapshot' then return encoded end
return result
`;
