#!/usr/bin/env zsh
# complete.zsh SCRIPT LINE: the completions zsh offers at the end of LINE, one per line, sorted. Runs an
# interactive zsh in a pseudo-terminal (zpty) with compinit and the script, types LINE and a tab, and prints what
# reaches compadd (complete-setup.zsh wraps it) between two NUL lines.
zmodload zsh/zpty
zpty completion zsh -f -i
zpty -w completion "source ${0:A:h}/complete-setup.zsh $1"
zpty -w completion "$2"$'\t'
local line out=""
integer started=0
while zpty -r completion line; do
    if [[ $line == *$'\0'* ]]; then
        (( started )) && break
        started=1
        continue
    fi
    # (A line read from the terminal ends in CR LF.)
    line=${line//$'\r'/}
    (( started )) && out+="${line%$'\n'}"$'\n'
done
zpty -d completion
print -rn -- "$out" | grep -v '^$' | sort -u
