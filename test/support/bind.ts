// The composition every entry point that writes time entries makes (functions/time-entries, the demo seeder):
// the running-timer rule and the rollups bound to the time-entry repository, for the tests that write
// through the repositories directly. test/time-entries/timers-binding.test.ts checks the entry points bind it themselves.
import '../../shared/services/timers';
