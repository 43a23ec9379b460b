-- Scenario tests of the sandbox described in scripting/README.md. Test files run in the same
-- sandbox as rules scripts (plus the test API), so the standard library is checked here.
-- Run: plateau test tests/data/games/api-examples --scenario tests/data/games/api-examples/tests/sandbox_test.lua

test("absent globals: io, os, debug, package, load, dofile, loadfile, rawset, warn", function()
  for _, name in ipairs({ "io", "os", "debug", "package", "load", "loadstring", "dofile", "loadfile",
                          "rawset", "warn", "unpack", "module" }) do
    expect_error(function() return _G[name] end, "undeclared global '" .. name .. "'")
  end
end)

test("absent library functions: string.dump, coroutine.close", function()
  expect_eq(string.dump, nil)
  expect_eq(coroutine.close, nil)
end)

test("present globals", function()
  for _, name in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "print", "rawequal",
                          "rawget", "rawlen", "select", "getmetatable", "setmetatable", "tonumber", "tostring",
                          "type", "collectgarbage", "require" }) do
    expect_eq(type(_G[name]), "function", name)
  end
  for _, name in ipairs({ "string", "table", "math", "utf8", "coroutine" }) do
    expect_eq(type(_G[name]), "table", name)
  end
  expect_eq(_VERSION, "Lua 5.4")
end)

test("strict globals: reading or writing an undeclared global is an error", function()
  expect_error(function() return undefined_name end, "undeclared global 'undefined_name'")
  expect_error(function() new_global = 1 end, "assignment to undeclared global 'new_global' (declare it 'local')")
end)

test("library tables are read-only", function()
  expect_error(function() string.upper = nil end, "attempt to modify read-only table (field 'upper')")
  expect_error(function() math.pi = 3 end, "read-only table")
  expect_eq(getmetatable(""), false, "the string metatable is hidden")
  expect_eq(("abc"):upper(), "ABC", "string methods still work")
end)

test("pairs visits keys in sorted order; tostring shows no address", function()
  local keys = {}
  for k in pairs({ b = 1, a = 2, [3] = 0, [1] = 0, [2.5] = 0 }) do keys[#keys + 1] = tostring(k) end
  expect_eq(keys, { "1", "2.5", "3", "a", "b" })
  expect_eq(tostring({}), "table")
  expect_eq(tostring(print), "function")
  expect_eq(string.format("%s", {}), "table")
  expect_error(function() return string.format("%p", {}) end, "'%p' is not allowed")
end)

test("setmetatable refuses __gc, __mode and __close", function()
  expect_error(function() setmetatable({}, { __gc = function() end }) end, "metatable field '__gc' is not allowed")
  expect_error(function() setmetatable({}, { __mode = "k" }) end, "metatable field '__mode' is not allowed")
  expect_error(function() setmetatable({}, { __close = function() end }) end, "'__close' is not allowed")
  local t = setmetatable({}, { __index = function(_, k) return k * 2 end })
  expect_eq(t[21], 42)
end)

test("a metatable cannot gain __gc, __mode or __close later; classes work as in plain Lua", function()
  local Base = {}
  Base.__index = Base
  function Base.new(x) return setmetatable({ x = x }, Base) end
  function Base:get() return self.x end
  local b = Base.new(4)
  function Base:twice() return 2 * self.x end       -- a method added after an object exists
  expect_eq(b:twice(), 8)
  expect_eq(getmetatable(b) == Base, true, "getmetatable(object) is its class")
  expect_error(function() Base.__mode = "k" end, "metatable field '__mode' is not allowed")
  expect_error(function() Base.__gc = function() end end, "metatable field '__gc' is not allowed")
  expect_error(function() Base.__close = function() end end, "'__close' is not allowed")
  -- inheritance, set before or after the class serves as a metatable
  local Derived = setmetatable({}, { __index = Base })
  Derived.__index = Derived
  local d = setmetatable({ x = 5 }, Derived)
  expect_eq(d:get(), 5)
  local Late = {}
  Late.__index = Late
  local l = setmetatable({ x = 6 }, Late)
  setmetatable(Late, { __index = Base })
  expect_eq(l:twice(), 12, "inheritance given after the class served as a metatable")
  expect_error(function() Late.__mode = "v" end, "metatable field '__mode' is not allowed")
  -- a protected metatable stays protected
  local Locked = setmetatable({}, { __metatable = "locked" })
  setmetatable({}, Locked)
  expect_eq(getmetatable(Locked), "locked")
  expect_error(function() setmetatable(Locked, {}) end, "cannot change a protected metatable")
end)

test("string.rep and patterns are bounded", function()
  expect_error(function() return ("x"):rep(1 << 25) end, "string.rep result over 16777216 bytes")
  expect_eq(#("ab"):rep(3, ","), 8)
  expect_error(function() return ("a"):rep(3000):find("(.-)(.-)(.-)b") end, "is too costly")
  expect_error(function() return ("a"):find(("x"):rep(300)) end, "pattern longer than 256 characters")
  expect_eq(("key=value"):match("(%w+)=(%w+)"), "key")
end)

test("collectgarbage only counts; math.randomseed belongs to the host", function()
  expect_true(collectgarbage("count") > 0)
  expect_error(function() collectgarbage("collect") end, "collectgarbage only supports \"count\"")
  expect_error(function() math.randomseed(1) end, "the random seed belongs to the host")
  -- Test files have no game state, so math.random is unavailable here (rules hooks have it).
  expect_error(function() return math.random(6) end, "math.random is not available here")
end)

test("require refuses names that leave the game folder", function()
  expect_error(function() require("../etc/passwd") end, "bad module name")
  expect_error(function() require("/abs") end, "bad module name")
end)

test("pcall and error objects; coroutines work", function()
  local ok, err = pcall(error, { code = 7 })
  expect_eq({ ok, err }, { false, { code = 7 } })
  local gen = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
  expect_eq({ gen(1), gen(5) }, { 2, 10 })
  expect_eq(math.type(1), "integer")
  expect_eq(math.type(1.0), "float")
  expect_eq(utf8.char(233), "é")
end)
