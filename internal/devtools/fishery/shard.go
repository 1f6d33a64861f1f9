package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Shard is one slice of a `ci` run: the Index-th of Count (1-based).
type Shard struct {
	Index, Count int
}

// ParseShard reads "I/N": digits only, N ≥ 1 and 1 ≤ I ≤ N (§11).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, errI := parseDigits(i)
	count, errN := parseDigits(n)
	if !ok || errI != nil || errN != nil || count < 1 || index < 1 || index > count {
		return Shard{}, fmt.Errorf("--shard: %q, expected I/N with 1 <= I <= N, such as 1/4", s)
	}
	return Shard{Index: index, Count: count}, nil
}

func parseDigits(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("not digits")
	}
	return strconv.Atoi(s)
}

// Weighted is a target name with its scheduling weight.
type Weighted struct {
	Name   string
	Weight int
}

// AssignShards splits targets into count shards, greedily (§11): the
// heaviest target first (ties by name) goes to the currently lightest shard
// (the first one on ties). Each shard's names come back sorted. The result
// depends only on the names and weights, so every CI job computes the same
// split independently.
func AssignShards(targets []Weighted, count int) [][]string {
	order := slices.Clone(targets)
	slices.SortFunc(order, func(a, b Weighted) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), strings.Compare(a.Name, b.Name))
	})
	shards := make([][]string, count)
	load := make([]int, count)
	for _, t := range order {
		lightest := 0
		for i := 1; i < count; i++ {
			if load[i] < load[lightest] {
				lightest = i
			}
		}
		shards[lightest] = append(shards[lightest], t.Name)
		load[lightest] += t.Weight
	}
	for _, names := range shards {
		slices.Sort(names)
	}
	return shards
}
