package posixonly

// The identifier is the message: Go prints "undefined: <it>".
var _ = opencenter_needs_Linux_macOS_or_a_BSD__on_Windows_run_it_under_WSL
