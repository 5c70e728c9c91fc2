# Sourced by complete.zsh in the zsh it drives: compinit, the script under test, a tab that completes, a NUL line
# before and after the completions, and compadd printing each match it is given.
PROMPT=''
autoload -U compinit && compinit -u -D
source "$1"
compdef _prewarm-lint prewarm-lint
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
null-line() { echo -E - $'\0' }
compprefuncs=(null-line)
comppostfuncs=(null-line exit)
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd() {
    # Asked only to fill an array (-O, -A, -D): no match offered.
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return $?
    fi
    typeset -a hits
    builtin compadd -A hits "$@"
    local hit
    for hit in $hits; do echo -E - "$hit"; done
    builtin compadd "$@"
}
