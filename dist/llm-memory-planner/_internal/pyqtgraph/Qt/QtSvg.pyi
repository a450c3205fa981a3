# Import packages in reverse libOrder as defined in pyqtgraph/Qt/__init__.py
from PySide2.QtSvg import *
from PyQt5.QtSvg import *
from PySide6.QtSvg import *
from PyQt6.QtSvg import *
