from worker.app import main

main()
