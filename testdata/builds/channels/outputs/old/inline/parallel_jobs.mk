JOBS := 1
