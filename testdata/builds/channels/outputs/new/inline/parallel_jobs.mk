JOBS := 2
