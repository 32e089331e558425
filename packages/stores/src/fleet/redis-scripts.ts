/**
 * The fleet meter's Lua scripts: each runs atomically in Redis, so every check-and-take of a
 * reservation is one round trip that no other node can interleave with.
 *
 * Keys of a tenant: `min` (credits spent in one UTC minute), `used` (credits billed this month,
 * seeded from the PostgreSQL ledger when missing), `holds` (a sorted set of calls under way:
 * member `requestId:cost`, score the hold's expiry in unix ms). `boot` marks when this Redis
 * started answering: a missing `used` after a restart is re-read from the ledger only once
 * every commit started before the restart has finished (see RedisMeter.seed).
 * Statuses: 0 ok, 1 monthly allowance refuses, 2 minute spent, 3 month total must be seeded.
 * Replies carry the minute's spent credits after the script (-1 when not read), so the node can
 * answer `x-ratelimit-remaining` without another round trip.
 */

const BOOT = `
local boot = redis.call('GET', KEYS[4])
if not boot then
  boot = ARGV[1]
  redis.call('SET', KEYS[4], boot)
end`;

const SUM_LIVE_HOLDS = `
local function live_holds(holds_key, now)
  redis.call('ZREMRANGEBYSCORE', holds_key, '-inf', now)
  local held = 0
  for _, member in ipairs(redis.call('ZRANGE', holds_key, 0, -1)) do
    held = held + tonumber(string.match(member, ':(%d+)$'))
  end
  return held
end`;

/** KEYS min used holds boot; ARGV now cost rate monthly hardCap metered member holdExpiresAt minuteTtlMs holdTtlMs */
export const RESERVE_SCRIPT = `${SUM_LIVE_HOLDS}
${BOOT}
local used = redis.call('GET', KEYS[2])
if not used then return {3, boot} end
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local monthly = tonumber(ARGV[4])
if monthly > 0 then
  local committed = tonumber(used) + live_holds(KEYS[3], now)
  if ARGV[5] == '1' then
    if committed + cost > monthly then return {1, boot} end
  elseif ARGV[6] ~= '1' then
    if committed >= monthly then return {1, boot} end
  end
end
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if spent + cost > tonumber(ARGV[3]) then return {2, boot, spent} end
redis.call('INCRBY', KEYS[1], cost)
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call('ZADD', KEYS[3], ARGV[8], ARGV[7])
redis.call('PEXPIRE', KEYS[3], ARGV[10])
return {0, boot, spent + cost}`;

/**
 * KEYS min used holds boot; ARGV now member credits refund monthly hardCap.
 * Turns the hold into billed credits. A hold that is gone (Redis restarted or the call outlived
 * it) is judged afresh against a hard cap: the call is refused (answered 503, unbilled) rather
 * than let the month past the cap.
 */
export const SETTLE_SCRIPT = `${SUM_LIVE_HOLDS}
${BOOT}
local used = redis.call('GET', KEYS[2])
if not used then return {3, boot} end
local credits = tonumber(ARGV[3])
local had = redis.call('ZREM', KEYS[3], ARGV[2])
local monthly = tonumber(ARGV[5])
if had == 0 and ARGV[6] == '1' and monthly > 0 then
  if tonumber(used) + live_holds(KEYS[3], tonumber(ARGV[1])) + credits > monthly then return {1, boot} end
end
if credits > 0 then redis.call('INCRBY', KEYS[2], credits) end
local refund = tonumber(ARGV[4])
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if had == 1 and refund > 0 and spent > 0 then
  local refunded = math.min(spent, refund)
  redis.call('DECRBY', KEYS[1], refunded)
  spent = spent - refunded
end
return {0, boot, spent}`;

/** KEYS min holds; ARGV member cost: gives back the hold and the minute of a call that never ran. */
export const RELEASE_SCRIPT = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if redis.call('ZREM', KEYS[2], ARGV[1]) == 1 and spent > 0 then
  local refunded = math.min(spent, tonumber(ARGV[2]))
  redis.call('DECRBY', KEYS[1], refunded)
  spent = spent - refunded
end
return spent`;

/** KEYS used boot; ARGV credits epoch: takes back a bill whose ledger row could not be written. */
export const UNBILL_SCRIPT = `
if redis.call('GET', KEYS[2]) == ARGV[2] and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DECRBY', KEYS[1], ARGV[1])
end
return 0`;

/** KEYS used boot; ARGV total expireAtMs epoch: the month total read from the ledger, once. */
export const SEED_SCRIPT = `
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'NX')
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`;

/** KEYS min used holds boot; ARGV now: the month total (false when it must be seeded) and boot. */
export const STATUS_SCRIPT = `${BOOT}
local used = redis.call('GET', KEYS[2])
if not used then return {3, boot} end
return {0, boot, used}`;

/** KEYS min; ARGV cost rate minuteTtlMs: /account's token, the minute only. */
export const TAKE_MINUTE_SCRIPT = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if spent + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {2, '', spent} end
redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {0, '', spent + tonumber(ARGV[1])}`;

/** KEYS failures; ARGV limit: seconds of refusal left, or -1 when the address is not refused. */
export const FAILURE_REFUSAL_SCRIPT = `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures < tonumber(ARGV[1]) then return -1 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return -1 end
return ttl`;

/** KEYS failures; ARGV windowMs: counts one failure; the window opens at the first. */
export const FAILURE_RECORD_SCRIPT = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return failures`;
