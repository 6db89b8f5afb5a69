# SPDX-License-Identifier: GPL-2.0-only
# framebench profile: a real-time strategy game. CPU-heavy simulation with
# bursts of 2-3 ms and more (an AI planner runs long on some frames),
# a simulation lock the job workers contend on.
# The process is called fb-strategy: no engine's thread names are modelled
# here, and lavd's candidate profile for this genre finds the stand-in by it.
name        strategy
description real-time strategy: CPU-heavy simulation, 2-3 ms bursts and longer AI spikes

fps              60
frames-in-flight 2
comm             fb-strategy
workers          4

process compositor
mutex   sim

input period=1ms     work=20us..60us
audio period=5333us  work=100us..300us
net   period=50ms    work=200us..600us lock=sim hold=50us..150us

stage game
  work   2ms..3ms
  fanout 4 300us..800us
  work   500us..1ms
  fanout 8 100us..300us lock=sim hold=30us..100us
  lock   sim 100us..300us
  fanout 4 200us..500us
  work   3ms..8ms p=0.05
  fanout 4 100us..300us
  work   300us..700us
  fanout 4 50us..200us

stage render
  work   800us..1500us
  fanout 4 150us..400us
  work   300us..600us
  fanout 4 100us..300us
  fanout 4 80us..200us

stage driver
  work   100us..300us

stage present process=compositor
  work   100us..200us
