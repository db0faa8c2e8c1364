package overlay

// For the external tests.
var (
	// Step is the hook called before each file system operation of a write.
	Step = &step
	// TmpPrefix and TmpSuffix frame the names of a write's temporary files.
	TmpPrefix, TmpSuffix = tmpPrefix, tmpSuffix
)
