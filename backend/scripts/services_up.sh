#!/usr/bin/env bash
# Make sure PostgreSQL, Redis and RabbitMQ answer on loopback; start any that is down with the
# commands this machine kind documents. Idempotent.
set -euo pipefail

up() { timeout 1 bash -c "</dev/tcp/127.0.0.1/$1" 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do up "$1" && return 0; sleep 1; done
  echo "service on port $1 did not come up" >&2
  return 1
}

if ! up 5432; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  wait_port 5432
fi
if ! up 6379; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port 6379
fi
if ! up 5672; then
  echo "starting RabbitMQ"
  rabbitmq-server -detached
  wait_port 5672
fi
# One RabbitMQ vhost per test process (`pytest -n`), so no process takes another's messages.
for vhost in ${OPENGURU_TEST_VHOSTS:-openguru_test_gw0 openguru_test_gw1}; do
  rabbitmqctl -q add_vhost "$vhost" >/dev/null 2>&1 || true  # already there
  if ! rabbitmqctl -q set_permissions -p "$vhost" guest ".*" ".*" ".*" >/dev/null; then
    echo "could not open RabbitMQ vhost $vhost to guest: its real-worker tests will fail" >&2
  fi
done
echo "PostgreSQL, Redis and RabbitMQ are up on 127.0.0.1"
