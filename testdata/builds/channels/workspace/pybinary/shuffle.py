"""shuffle.py [--seed N] WORD...: the words in a shuffled order, for test sharding."""

import argparse
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int)
    parser.add_argument("words", nargs="+")
    args = parser.parse_args()
    rng = random.Random(args.seed) if args.seed is not None else random
    words = list(args.words)
    rng.shuffle(words)
    print(" ".join(words))


if __name__ == "__main__":
    main()
