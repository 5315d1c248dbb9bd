# The unprivileged user the server runs as: `node`, uid and gid 1000, as in the official Node.js images.
set -e
grep -q '^node:' /etc/group || echo 'node:x:1000:' >> /etc/group
grep -q '^node:' /etc/passwd || echo 'node:x:1000:1000:node:/home/node:/bin/sh' >> /etc/passwd
mkdir -p /home/node && chown 1000:1000 /home/node
