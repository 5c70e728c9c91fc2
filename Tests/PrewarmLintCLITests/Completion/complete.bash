# complete.bash SCRIPT WORD…: the completions bash offers for the last WORD (which may be empty) of
# `WORD…`, one per line, sorted. Sets up what bash's programmable completion would (COMP_WORDS, COMP_CWORD,
# COMP_LINE, COMP_POINT) and calls the script's function as `complete -F` would.
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
previous=""
[[ ${COMP_CWORD} -gt 0 ]] && previous="${COMP_WORDS[$((COMP_CWORD - 1))]}"
_prewarm-lint prewarm-lint "${COMP_WORDS[${COMP_CWORD}]}" "${previous}"
printf '%s\n' "${COMPREPLY[@]}" | sort -u
