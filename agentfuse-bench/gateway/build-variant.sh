#!/usr/bin/env bash
# Builds agentfuse.jar with one hot-path piece of PERFORMANCE.md swapped, for an A/B against the jar of
# the checked-out commit with measure-cost.sh (COMPARE_JAR=...):
#
#   agentfuse-bench/gateway/build-variant.sh PIECE
#
# PIECE is a piece of PERFORMANCE.md:
#   - a piece that was replaced by the library's way: coarse-clock, loop-timeouts, flush-batching,
#     plain-decoder, own-provider-pool. The commit that replaced it (the one whose message has the
#     trailer "Piece: PIECE") is reverted: the variant is the build WITH the hand-built piece back.
#     Where a later commit rewrote a file the revert touches (the provider calls, ARCHITECTURE.md),
#     the file stays as HEAD has it, and agentfuse-bench/gateway/with/PIECE.patch, if there is one,
#     puts back what the piece needs there (loop-timeouts: the seam's context dispatch);
#   - a piece that stays: value-memo, token-count-cache, answer-scans, sized-bodies, pooled-allocator.
#     agentfuse-bench/gateway/without/PIECE.patch takes it out: the variant is the build WITHOUT it;
#   - @COMMIT: that commit as it is, for a build of another day (PERFORMANCE.md's done-when comparisons).
#
# It builds in a detached git worktree of HEAD under agentfuse-bench/target/variants/PIECE/src
# (removed afterwards) with ./mvnw package (never install: nothing in ~/.m2 is overwritten) and
# prints the jar's path, agentfuse-bench/target/variants/PIECE/agentfuse.jar. Uncommitted changes of
# the checkout are not in the variant.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PIECE=${1:?usage: build-variant.sh PIECE (see PERFORMANCE.md)}
OUT="$ROOT/agentfuse-bench/target/variants/$PIECE"
WORK="$OUT/src"
PATCH="$ROOT/agentfuse-bench/gateway/without/$PIECE.patch"

die() { echo "build-variant: $*" >&2; exit 1; }

AT=HEAD
if [[ $PIECE == @* ]]; then
  AT=$(git -C "$ROOT" rev-parse --verify "${PIECE#@}^{commit}") || die "no commit ${PIECE#@}"
  PIECE=at-${PIECE#@}
  OUT="$ROOT/agentfuse-bench/target/variants/$PIECE"
  WORK="$OUT/src"
fi
[[ $PIECE =~ ^[a-z0-9-]+$ ]] || die "a piece is named in lower case with dashes, not '$PIECE'"
COMMIT=""
if [[ $AT != HEAD ]]; then
  :
elif [[ ! -f $PATCH ]]; then
  COMMIT=$(git -C "$ROOT" log --format=%H -1 --grep="^Piece: $PIECE\$" HEAD)
  [[ -n $COMMIT ]] || die "no piece '$PIECE': neither $PATCH nor a commit with the trailer 'Piece: $PIECE'"
fi

mkdir -p "$OUT"
git -C "$ROOT" worktree remove --force "$WORK" >/dev/null 2>&1 || rm -rf "$WORK"
git -C "$ROOT" worktree add --detach "$WORK" "$AT" >/dev/null
trap 'git -C "$ROOT" worktree remove --force "$WORK" >/dev/null 2>&1 || true' EXIT

if [[ -n $COMMIT ]]; then
  echo "build-variant: $PIECE back: reverting $(git -C "$ROOT" log --format='%h %s' -1 "$COMMIT")" >&2
  if ! git -C "$WORK" revert --no-commit "$COMMIT" >/dev/null 2>&1; then
    conflicted=$(git -C "$WORK" diff --name-only --diff-filter=U)
    [[ -n $conflicted ]] || die "the revert of $COMMIT does not apply to HEAD"
    while read -r path; do
      echo "build-variant:   $path as HEAD has it (rewritten since)" >&2
      git -C "$WORK" checkout --ours -- "$path" && git -C "$WORK" add -- "$path"
    done <<<"$conflicted"
  fi
  FIXUP="$ROOT/agentfuse-bench/gateway/with/$PIECE.patch"
  if [[ -f $FIXUP ]]; then
    git -C "$WORK" apply "$FIXUP" || die "$FIXUP does not apply after the revert"
  fi
elif [[ $AT == HEAD ]]; then
  echo "build-variant: without $PIECE: applying ${PATCH#"$ROOT"/}" >&2
  git -C "$WORK" apply "$PATCH" || die "$PATCH does not apply to HEAD"
fi

(cd "$WORK" && ./mvnw -q -B -DskipTests package -pl agentfuse-cli -am) || die "the variant does not build"
cp "$WORK/agentfuse-cli/target/agentfuse.jar" "$OUT/agentfuse.jar"
echo "$OUT/agentfuse.jar"
