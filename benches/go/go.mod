module perfbench

go 1.19

// PostgreSQL driver from Debian's golang-github-lib-pq-dev (../install-toolchains.sh installs it), read offline
// from /usr/share/gocode like the Rust suite's crates: nothing is fetched from the network.
require github.com/lib/pq v1.10.7

replace github.com/lib/pq => /usr/share/gocode/src/github.com/lib/pq
