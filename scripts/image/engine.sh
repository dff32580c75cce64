# Sourced by the image scripts: installs Debian's podman and friends when missing, and sets ENGINE, the flags
# every `podman build`/`podman run` needs on these machines: runc (Debian's crun 1.8 refuses their hybrid cgroup
# layout) and explicit --ulimit values (they cannot raise limits: no CAP_SYS_RESOURCE).
if ! command -v podman > /dev/null || ! command -v debootstrap > /dev/null || ! command -v runc > /dev/null; then
  echo "Installing Debian's podman, buildah, debootstrap and runc..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah debootstrap fuse-overlayfs uidmap slirp4netns runc > /dev/null
fi
NOFILE=$(ulimit -Hn)
[ "$NOFILE" = unlimited ] && NOFILE=1048576
ENGINE=(--runtime runc --ulimit "nofile=$NOFILE:$NOFILE" --ulimit nproc=32768:32768)
