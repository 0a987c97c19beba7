/// \file
/// One error mechanism for the whole library: exceptions derived from
/// nettopo::Error. InputError is bad data, UsageError a bad request. Messages
/// speak of the library's own calls and options; a program with a command line
/// names its own options from the data the errors carry (remedy(),
/// ValueError::text()).
///
/// Every call of the library throws one of these for bad data or a bad
/// request, std::bad_alloc when memory runs out, and nothing else (a
/// std::system_error or std::out_of_range escaping is a bug).
/// \cost Making or copying an error copies its strings (message, file name,
/// text): O(length), std::bad_alloc at worst. The accessors are O(1) and
/// throw nothing; named() builds a string, O(length).
/// \threads The error objects are values: safe to pass between threads, and
/// const calls may be made from several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace nettopo {

/// The option of the library that a caller can set to avoid an error (or to
/// settle an issue of an assembly), when there is one. The message does not
/// say it: a program names the option the way its users set it, e.g. a tool's
/// flag.
enum class Remedy : std::uint8_t {
    none,
    allow_disconnected,       ///< BuildOptions::allow_disconnected: accept a network in pieces
    default_machine,          ///< AssembleOptions::default_machine: a machine for hosts without one
    hosts_or_default_machine, ///< ClusterSources::hosts (the hosts' exports), or default_machine
    allowed_only,             ///< PuScope::allowed_only: model only the PUs an export allowed
    host_naming,              ///< HostNaming: choose how exports name their hosts
    raise_vertex_limit, ///< Limits::max_vertices (limits.hpp): allow more machines and switches
    raise_link_limit,   ///< Limits::max_links: allow more links
    force_generation,   ///< Limits::max_generated_bytes: generate a cluster estimated that large
    // The file read is another program's: give it where that kind is read
    // (assemble.hpp's ClusterSources), not as a whole cluster (load.hpp).
    read_as_ibnetdiscover, ///< ClusterSources::ibnetdiscover: an ibnetdiscover dump
    read_as_slurm,         ///< ClusterSources::slurm: a Slurm topology.conf or topology.yaml
    read_as_host_export,   ///< ClusterSources::hosts: an hwloc topology diff
    node_name_map,         ///< ClusterSources::node_name_map: name adapters by GUID
};

/// The base of every error the library throws; what() is the message.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    /// An error with `message` that `remedy` would avoid.
    Error(const std::string& message, Remedy remedy)
        : std::runtime_error(message), remedy_(remedy) {}

    /// The option that would avoid the error, Remedy::none when none.
    Remedy remedy() const { return remedy_; }

private:
    Remedy remedy_ = Remedy::none;
};

/// Bad data: a malformed file, an inconsistent topology, an unknown name.
/// Carries where the problem is when it comes from a file ("file:line: ...").
class InputError : public Error {
public:
    /// An error tied to no file (the caller may locate it later).
    explicit InputError(const std::string& message, Remedy remedy = Remedy::none)
        : Error(message, remedy) {}
    /// An error at `file`:`line` (line 0: the whole file); what() is
    /// "file:line: message"; `remedy` says what would make it pass.
    InputError(const std::string& file, std::size_t line, const std::string& message,
               Remedy remedy = Remedy::none)
        : Error(locate(file, line) + message, remedy), file_(file), line_(line) {}
    /// `cause` (an error that names no file) located in `file`, remedy kept.
    InputError(const std::string& file, std::size_t line, const InputError& cause)
        : Error(locate(file, line) + cause.what(), cause.remedy()), file_(file), line_(line) {}

    /// The file, empty when the error names none.
    const std::string& file() const { return file_; }
    /// The line, 0 when not tied to a line.
    std::size_t line() const { return line_; }

private:
    static std::string locate(const std::string& file, std::size_t line) {
        if (file.empty()) return {};
        return line == 0 ? file + ": " : file + ":" + std::to_string(line) + ": ";
    }
    std::string file_;
    std::size_t line_ = 0;
};

/// Bad request: an argument out of range, a PE index past the end, an unknown option.
class UsageError : public Error {
public:
    using Error::Error;
};

/// A value given as text that does not read: a "KIND=NS" link setting, a
/// synthetic machine description, a list of names. what() is "'TEXT': PROBLEM",
/// or PROBLEM alone when `text` is empty. A program that took the text from a
/// named option or field puts the name in front ("--latency 'uplink=5': ...").
class ValueError : public UsageError {
public:
    /// `problem` with the text `text` that does not read.
    ValueError(const std::string& text, const std::string& problem)
        : UsageError(text.empty() ? problem : "'" + text + "': " + problem), text_(text),
          problem_(problem) {}

    /// The text that does not read (may be empty).
    const std::string& text() const { return text_; }
    /// What is wrong with it.
    const std::string& problem() const { return problem_; }

    /// The message with `name`, the option or field the text was given as, in
    /// front: "--latency 'uplink=5': PROBLEM", or "--strategy: PROBLEM".
    std::string named(std::string_view name) const {
        std::string message(name);
        message += text_.empty() ? ": " : " ";
        message += text_.empty() ? problem_ : std::string(what());
        return message;
    }

private:
    std::string text_, problem_;
};

/// Runs `read`, which reads a value given as `name` (a program's option, a
/// field of a spec); a ValueError it throws comes out as the UsageError
/// ValueError::named(name). Other errors pass unchanged.
/// \cost That of `read`, plus O(length) for the message when it throws.
/// \threads As `read`: it adds no state of its own.
template <class Read> decltype(auto) read_named(std::string_view name, Read&& read) {
    try {
        return read();
    } catch (const ValueError& e) {
        throw UsageError(e.named(name));
    }
}

} // namespace nettopo
