// beamvm --watch: modules whose .beam files change in the watched directories are reloaded
// into the running VM (root namespace) by beamvm's watch server (vm/erlang/beamvm_watch.erl),
// which loads the new version if the previous old code can be soft-purged and otherwise
// reports which processes still run it (or, with force, purges it). Changes are seen through
// inotify by one thread blocked in poll(): no polling loop.
#pragma once

#include <string>
#include <thread>
#include <vector>

#include "vm/result.hpp"

namespace beam {

class VM;

class CodeWatcher {
public:
    CodeWatcher(VM& vm, std::vector<std::string> dirs, bool force);
    ~CodeWatcher();
    CodeWatcher(const CodeWatcher&) = delete;
    CodeWatcher& operator=(const CodeWatcher&) = delete;

    // Watches the directories and starts the thread; call once the VM's schedulers run.
    Result<void> start();

private:
    void run();
    void changed(const std::string& dir, const std::string& file);

    VM& vm_;
    std::vector<std::string> dirs_;
    std::vector<int> watches_;  // inotify watch descriptor per entry of dirs_
    bool force_;
    int inotify_ = -1;
    int stop_[2] = {-1, -1};  // a byte written to stop_[1] ends the thread
    std::thread thread_;
};

}  // namespace beam
