// Exposes libyaml (pkg-config yaml-0.1) to Swift.
#include <yaml.h>
