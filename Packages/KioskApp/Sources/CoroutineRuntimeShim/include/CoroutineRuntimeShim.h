// See CoroutineRuntimeShim.c.
