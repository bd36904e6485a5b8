# Sourced by the gateway bench's scripts, after they define die.
#
# transport_of LOG: the network transport that the JVM target logging to LOG says it runs on
# (io_uring, epoll, nio), waiting up to 5 s for the line; dies when none comes. The bench compares
# targets only on one transport: the Vert.x floor once ran on epoll beside a gateway on io_uring,
# because the bench's jar lacked io_uring's library.
transport_of() {
  local line
  for _ in $(seq 50); do
    line=$(grep -o -m1 'network transport: [a-z_]*' "$1" 2>/dev/null) && { echo "${line##* }"; return; }
    sleep 0.1
  done
  die "no network transport logged in $1"
}
