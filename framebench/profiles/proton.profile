# SPDX-License-Identifier: GPL-2.0-only
# framebench profile: a DX11 game under Proton (Wine + DXVK).
# Many threads, futex-heavy (Wine's synchronisation is emulated on futexes),
# and a frame chain that crosses processes: game -> wineserver -> game,
# and the finished frame goes to the compositor process that presents it.
# Work is in microseconds of calibrated CPU work unless a unit is given.
# Names as under Proton (lavd's game profiles match them): Wine names the
# game's process after its .exe (prctl PR_SET_NAME in ntdll's
# set_process_name), its unnamed threads keep that name, DXVK names its
# command-stream and submission threads dxvk-cs and dxvk-submit, and the
# Wine server is the process "wineserver".
name        proton
description DX11 game under Proton: many threads, futex-heavy, wineserver round trips, compositor present

fps              60
frames-in-flight 2
workers          4 thread=ProtonGame.exe
comm             ProtonGame.exe

process wineserver comm=wineserver
process compositor

# Wine's critical sections and the wineserver request handler.
mutex   wine-cs
service wineserver process=wineserver work=15us..60us thread=wineserver

input period=1ms     work=20us..80us
audio period=5333us  work=100us..300us
net   period=15625us work=100us..400us lock=wine-cs hold=20us..60us

# The game thread: messages from wineserver, simulation, job fan-outs.
stage game thread=ProtonGame.exe
  call   wineserver
  work   300us..700us
  fanout 4 150us..400us lock=wine-cs hold=10us..40us
  lock   wine-cs 30us..80us
  call   wineserver
  work   200us..500us
  fanout 6 100us..300us
  fanout 4 100us..250us
  call   wineserver
  work   200us..400us

# DXVK's command-stream thread: records the frame, parallel recording.
stage render thread=dxvk-cs
  work   400us..900us
  fanout 3 200us..500us
  call   wineserver 10us..40us
  work   200us..500us

# Queue submission and the driver's ioctl path.
stage submit thread=dxvk-submit
  work   80us..200us
  call   wineserver 10us..30us

# The compositor (gamescope) takes the frame and flips at vsync.
stage present process=compositor
  work   100us..250us
