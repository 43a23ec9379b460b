Èstate.data.n = (state.data.n or 0) + 1
  error({code = 1})