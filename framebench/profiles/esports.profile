# SPDX-License-Identifier: GPL-2.0-only
# framebench profile: a competitive shooter. Uncapped, very short tasks,
# one frame in flight (a low-latency mode), 300+ FPS on a small machine.
# The process is called fb-esports: no engine's thread names are modelled
# here, and lavd's candidate profile for this genre finds the stand-in by it.
name        esports
description competitive shooter: uncapped, very short tasks, one frame in flight

fps              0
frames-in-flight 1
comm             fb-esports
workers          2

process compositor

input period=1ms     work=10us..40us
audio period=5333us  work=80us..200us
net   period=7812us  work=50us..200us

stage game
  work   40us..120us
  fanout 2 20us..60us
  work   30us..80us
  fanout 2 20us..60us
  fanout 2 20us..50us
  work   20us..60us
  fanout 2 15us..40us
  fanout 2 15us..40us
  fanout 2 10us..30us

stage render
  work   60us..150us
  fanout 2 30us..80us
  work   30us..60us
  fanout 2 20us..60us
  fanout 2 20us..40us

stage driver
  work   20us..60us

stage present process=compositor
  work   20us..50us
