package cli

// runProgram is `ahab program`: how one command line is judged.
func runProgram(args []string, sys System) error {
	return usageError{"ahab program is not implemented yet"}
}
