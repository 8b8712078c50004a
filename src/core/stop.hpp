#pragma once
// SIGINT/SIGTERM handling: the first signal asks long phases to stop at the next safe point
// (they then write what they measured); a second one ends the process at once.
namespace dlsize {

void install_stop_handlers();
bool stop_requested();
void request_stop();
int stop_signal(); // the signal that asked, or 0

} // namespace dlsize
