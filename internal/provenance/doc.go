// Package provenance tells where each file of an overlay came from:
// written by opencenter, brought by git (a checkout, a pull, a merge), or
// changed by hand. The files carry no hash of their content, since a hash
// in a file makes every two concurrent changes to it conflict in git; so
// a render asks two witnesses instead:
//
//   - the ledger, which records the hash of every file opencenter writes,
//     outside the work tree: in the repository's git directory, which git
//     never tracks, else in the temporary directory;
//   - git itself: a file whose content is in git's index, or that git is
//     merging (a conflict, with or without its markers), did not come
//     from a hand edit of the work tree.
//
// A file that neither knows is a hand edit. Outside git, only a file the
// ledger records and whose content it does not know counts as one.
package provenance
