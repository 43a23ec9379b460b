Èstate.data.n = (state.data.n or 0) + 1
  return false, string.rep("x", 100000)